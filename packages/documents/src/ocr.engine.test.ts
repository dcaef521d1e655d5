import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { descendantProcesses, REPORT_PDF, reportPdf } from '@wcs/testing';
import { convertDocument } from './convert-document';
import { ocrHtml, ocrToolsAvailable } from './ocr.engine';
import { NO_TEXT_LAYER } from './pdf.converter';

const TOOLS = ocrToolsAvailable();
if (!TOOLS)
  console.log('OCR tests skipped: pdftoppm and tesseract are not both installed (scripts/ensure-tools.sh)');

/**
 * A PDF whose pages are grey images only (no text layer), each one page rendered from `source`;
 * with `textPage`, page 1 is instead a page with that line in its text layer (a mixed PDF).
 */
function imageOnlyPdf(source: Buffer, pages: number, textPage?: string): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'wcs-ocr-test-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), source);
    execFileSync('pdftoppm', ['-r', '150', '-gray', '-f', '1', '-l', '1', 'in.pdf', 'p'], { cwd: dir });
    const pgm = readFileSync(
      path.join(
        dir,
        execFileSync('ls', [dir])
          .toString()
          .split('\n')
          .find((f) => f.endsWith('.pgm')) ?? '',
      ),
    );
    // Binary PGM: "P5\n<w> <h>\n<max>\n" then one byte per pixel.
    const m = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 64).toString('latin1'));
    if (!m) throw new Error('pdftoppm wrote no binary PGM');
    const [header, w, h] = [m[0].length, Number(m[1]), Number(m[2])];
    const pixels = deflateSync(pgm.subarray(header, header + w * h));
    // 612x792 pt (Letter) pages, each drawing the same image over the whole page.
    const objects: Buffer[] = [];
    const kids = Array.from({ length: pages }, (_, i) => `${4 + 2 * i} 0 R`).join(' ');
    objects.push(Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'));
    objects.push(Buffer.from(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`));
    objects.push(
      Buffer.concat([
        Buffer.from(
          `<< /Type /XObject /Subtype /Image /Width ${w} /Height ${h} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${pixels.length} >>\nstream\n`,
        ),
        pixels,
        Buffer.from('\nendstream'),
      ]),
    );
    const draw = 'q 612 0 0 792 0 0 cm /Im0 Do Q';
    for (let i = 0; i < pages; i++) {
      if (i === 0 && textPage !== undefined) {
        const text = `BT /F1 14 Tf 72 700 Td (${textPage.replace(/[()\\]/g, '')}) Tj ET`;
        objects.push(
          Buffer.from(
            `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> /Contents ${5 + 2 * i} 0 R >>`,
          ),
        );
        objects.push(Buffer.from(`<< /Length ${text.length} >>\nstream\n${text}\nendstream`));
        continue;
      }
      objects.push(
        Buffer.from(
          `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`,
        ),
      );
      objects.push(Buffer.from(`<< /Length ${draw.length} >>\nstream\n${draw}\nendstream`));
    }
    const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
    const offsets: number[] = [];
    let at = parts[0]?.length ?? 0;
    objects.forEach((body, i) => {
      const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
      offsets.push(at);
      at += obj.length;
      parts.push(obj);
    });
    const xref = [
      'xref',
      `0 ${objects.length + 1}`,
      '0000000000 65535 f ',
      ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
      'trailer',
      `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
      'startxref',
      String(at),
      '%%EOF',
      '',
    ].join('\n');
    parts.push(Buffer.from(xref));
    return Buffer.concat(parts);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ocrChildren = () => descendantProcesses(/^(pdftoppm|tesseract)$/);

async function until(cond: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return cond();
}

describe('ocrHtml', () => {
  it('makes paragraphs of blank-line separated blocks, escaped', () => {
    expect(ocrHtml('One line\nand more\n\n\nA <b> & c\n')).toBe(
      '<p>One line and more</p>\n<p>A &lt;b&gt; &amp; c</p>',
    );
  });
});

(TOOLS ? describe : describe.skip)('OCR of PDFs without a text layer (tesseract)', () => {
  let scanned: Buffer;
  beforeAll(async () => {
    scanned = imageOnlyPdf(await reportPdf(), 1);
  });

  it('reads the page image when OCR is enabled', async () => {
    const doc = await convertDocument({
      bytes: new Uint8Array(scanned),
      kind: 'pdf',
      onlyMainContent: false,
      ocr: { enabled: true, languages: 'eng' },
    });
    expect(doc.warning).toMatch(/^OCR: 1 pages read by tesseract/);
    expect(doc.warning).not.toContain(NO_TEXT_LAYER);
    expect(doc.html.startsWith('<hr data-page="1">')).toBe(true);
    const text = doc.html.toLowerCase();
    for (const word of ['revenue', 'quarter', 'region']) expect(text).toContain(word);
    expect(REPORT_PDF.body1.toLowerCase()).toContain('revenue');
    expect(doc.metadata.pages).toBe(1);
  }, 60_000);

  it('reads only the scanned pages of a mixed PDF, keeping the text layer of the others', async () => {
    const mixed = imageOnlyPdf(await reportPdf(), 2, 'Typed cover page of the quarterly statement');
    const doc = await convertDocument({
      bytes: new Uint8Array(mixed),
      kind: 'pdf',
      onlyMainContent: false,
      ocr: { enabled: true, languages: 'eng' },
    });
    expect(doc.warning).toMatch(/^OCR: 1 of 2 pages read by tesseract/);
    const [page1, page2] = doc.html.split('<hr data-page="2">');
    expect(page1).toContain('Typed cover page of the quarterly statement');
    expect(page2?.toLowerCase()).toContain('revenue');
    expect(page1?.toLowerCase()).not.toContain('revenue');
    // Without OCR the text page is read and the scanned one stays empty, with no warning.
    const plain = await convertDocument({
      bytes: new Uint8Array(mixed),
      kind: 'pdf',
      onlyMainContent: false,
    });
    expect(plain.warning).toBeUndefined();
    expect(plain.html).toContain('Typed cover page');
    expect(plain.html.toLowerCase()).not.toContain('revenue');
  }, 60_000);

  it('answers NO_TEXT_LAYER as before when OCR is disabled', async () => {
    const doc = await convertDocument({
      bytes: new Uint8Array(scanned),
      kind: 'pdf',
      onlyMainContent: false,
      ocr: { enabled: false, languages: 'eng' },
    });
    expect(doc.html).toBe('');
    expect(doc.warning).toMatch(new RegExp(`^${NO_TEXT_LAYER}`));
  });

  it('leaves no pdftoppm/tesseract process behind when the conversion is aborted', async () => {
    const many = imageOnlyPdf(await reportPdf(), 6);
    const ac = new AbortController();
    const converting = convertDocument({
      bytes: new Uint8Array(many),
      kind: 'pdf',
      onlyMainContent: false,
      ocr: { enabled: true, languages: 'eng', signal: ac.signal },
    });
    const settled = converting.then(
      () => 'resolved',
      (err: unknown) => err,
    );
    expect(await until(() => ocrChildren().length > 0, 30_000)).toBe(true);
    ac.abort(new Error('stop reading'));
    const outcome = await settled;
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toBe('stop reading');
    expect(await until(() => ocrChildren().length === 0, 30_000)).toBe(true);
  }, 60_000);

  it('stops at the deadline: no process left, answered as NO_TEXT_LAYER (OCR failed)', async () => {
    const many = imageOnlyPdf(await reportPdf(), 6);
    const doc = await convertDocument({
      bytes: new Uint8Array(many),
      kind: 'pdf',
      onlyMainContent: false,
      // Six pages take seconds: 400 ms is never enough.
      ocr: { enabled: true, languages: 'eng', deadlineAt: Date.now() + 400 },
    });
    expect(doc.html).toBe('');
    expect(doc.warning).toMatch(new RegExp(`^${NO_TEXT_LAYER}: .*\\(OCR failed\\)`));
    expect(await until(() => ocrChildren().length === 0, 30_000)).toBe(true);
  }, 60_000);
});
