/**
 * Long documents with values planted at chosen places (near the end, on chunk boundaries), and a
 * fake model that "reads" them: it answers with exactly the planted values present in the text it
 * was shown, so a test or bench can tell which parts of a page reached the model.
 */
import type { FakeLlmReply, RecordedLlmRequest } from './fake-llm-server';
import { textSeenByModel } from './fake-llm-server';

export const LONG_DOC_SCHEMA = { orderNumber: 'string', total: 'number', products: ['string'] };

const WORDS =
  'the service keeps every page in order while the reader waits for news about shipping returns warranty colour size weather meeting forum thread reply quote'.split(
    ' ',
  );

function filler(seed: number, words: number): string {
  const out: string[] = [];
  let x = seed * 2654435761;
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out.push(WORDS[x % WORDS.length] as string);
  }
  return `${out.join(' ')}.`;
}

export interface PlantedValue {
  /** Where, as a fraction of the document (0 = start, 1 = end). */
  at: number;
  line: string;
}

/** Markdown of about `chars` characters: sections of paragraphs, the planted lines inserted. */
export function longDocument(chars: number, planted: PlantedValue[], kind: 'pdf' | 'forum' = 'pdf'): string {
  const blocks: string[] = [];
  let size = 0;
  let i = 0;
  while (size < chars) {
    const block =
      i % 12 === 0
        ? kind === 'pdf'
          ? `## Page ${i / 12 + 1}`
          : `### Reply #${i / 12 + 1} by user${i % 97}`
        : filler(i, 60 + (i % 40));
    blocks.push(block);
    size += block.length + 2;
    i++;
  }
  for (const p of [...planted].sort((a, b) => b.at - a.at)) {
    blocks.splice(Math.min(blocks.length, Math.round(p.at * blocks.length)), 0, p.line);
  }
  return blocks.join('\n\n');
}

/** The fake model's reading of the planted lines: `Order number: X`, `Total: N`, `Product: P`. */
export function readPlanted(req: RecordedLlmRequest): FakeLlmReply {
  const seen = textSeenByModel(req);
  // Only the page part: the instruction and schema are not page text.
  const pageText = seen.slice(seen.lastIndexOf('<page>'));
  const order = /Order number: (\S+)/.exec(pageText)?.[1] ?? null;
  const total = /Total: ([\d.]+)/.exec(pageText)?.[1];
  // Capitalised words only: a converter may join the planted line with the (lower-case) filler.
  const products = [...pageText.matchAll(/Product: ([A-Z]\w*(?: [A-Z]\w*)*)/g)].map((m) => m[1] as string);
  return {
    data: {
      orderNumber: order,
      total: total === undefined ? null : Number(total),
      products: products.length ? products : null,
    },
    usage: { input: Math.ceil(pageText.length / 4), output: 30 },
  };
}

/**
 * A real PDF of `pages` pages (pdfkit, uncompressed): a heading and ~30 lines of filler per page,
 * the planted lines on the pages given (1-based). What the documents converter turns into the
 * markdown the extract worker would send.
 */
export async function longPdf(pages: number, planted: Record<number, string[]>): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ autoFirstPage: false, compress: false });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  for (let p = 1; p <= pages; p++) {
    doc.addPage({ size: 'A4', margin: 50 });
    doc.fontSize(16).text(`Section ${p}`, 50, 50, { lineBreak: false });
    let y = 80;
    for (const line of planted[p] ?? []) {
      doc.fontSize(10).text(line, 50, y, { lineBreak: false });
      y += 16;
    }
    for (let l = 0; l < 30; l++, y += 16)
      doc.fontSize(10).text(filler(p * 100 + l, 12), 50, y, { lineBreak: false });
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
