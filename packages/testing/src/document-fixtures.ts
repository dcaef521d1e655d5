/**
 * Documents made on the fly for tests: PDFs (pdfkit) and Word files (docx), each with content
 * the tests assert on. No binary fixtures in the repository, and every property (text layer,
 * metadata, encryption, page count) is explicit here.
 */
import {
  AlignmentType,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from 'docx';
import PDFDocument from 'pdfkit';

/** Creation date of the fixture PDFs and DOCX. */
export const DOCUMENT_FIXTURE_CREATED = new Date('2024-03-15T10:30:00Z');

type Pdf = InstanceType<typeof PDFDocument>;

async function pdfBytes(options: PDFKit.PDFDocumentOptions, draw: (doc: Pdf) => void): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, compress: false, ...options });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  draw(doc);
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** Text at a fixed place, never flowing onto a new page. */
function at(doc: Pdf, text: string, x: number, y: number, size: number): void {
  doc.fontSize(size).text(text, x, y, { lineBreak: false });
}

/** Header "Acme Corp — Quarterly Report", footer "Confidential" and "Page N of M" on each page. */
function runningText(doc: Pdf, n: number, total: number): void {
  at(doc, 'Acme Corp Quarterly Report', 72, 30, 9);
  at(doc, 'Confidential', 72, 760, 9);
  at(doc, `Page ${n} of ${total}`, 480, 760, 9);
}

export const REPORT_PDF = {
  title: 'Quarterly Report',
  author: 'Jane Doe',
  pages: 3,
  heading1: 'Quarterly Report 2024',
  heading2: 'Revenue Overview',
  /** Drawn after `laterParagraph` but placed above it on page 3: reading order is by position. */
  earlierParagraph: 'This paragraph is drawn second but sits higher on the page.',
  laterParagraph: 'This paragraph is drawn first but sits lower on the page.',
  body1: 'Revenue grew by twelve percent over the quarter, driven by strong sales in every region.',
  body2: 'The second page discusses the outlook for the coming year in some detail.',
} as const;

/**
 * Three pages with a text layer: an h1-sized and an h2-sized heading, body paragraphs, the
 * running header/footer and page numbers on every page, metadata title/author/creation date.
 */
export function reportPdf(): Promise<Buffer> {
  const r = REPORT_PDF;
  return pdfBytes(
    { info: { Title: r.title, Author: r.author, CreationDate: DOCUMENT_FIXTURE_CREATED } },
    (doc) => {
      doc.addPage({ size: 'LETTER', margin: 72 });
      runningText(doc, 1, 3);
      at(doc, r.heading1, 72, 90, 24);
      at(doc, r.body1, 72, 140, 11);
      at(doc, 'A second line of the same paragraph follows right below it.', 72, 154, 11);
      at(doc, r.heading2, 72, 200, 16);
      at(doc, 'Costs stayed flat while the team grew.', 72, 240, 11);
      doc.addPage({ size: 'LETTER', margin: 72 });
      runningText(doc, 2, 3);
      at(doc, 'Outlook', 72, 90, 16);
      at(doc, r.body2, 72, 130, 11);
      doc.addPage({ size: 'LETTER', margin: 72 });
      runningText(doc, 3, 3);
      at(doc, r.laterParagraph, 72, 400, 11);
      at(doc, r.earlierParagraph, 72, 200, 11);
    },
  );
}

/** Pages of drawings only (as a scan would be): no text layer at all. */
export function scannedPdf(pages = 2): Promise<Buffer> {
  return pdfBytes({ info: { Title: 'Scanned' } }, (doc) => {
    for (let i = 0; i < pages; i++) {
      doc.addPage({ size: 'A4' });
      doc.rect(50, 50, 300, 200).fill('#333333');
      doc.circle(200, 500, 80).fill('#999999');
    }
  });
}

/** A PDF that needs a password to open. */
export function encryptedPdf(): Promise<Buffer> {
  return pdfBytes({ userPassword: 'secret', ownerPassword: 'owner', pdfVersion: '1.7' }, (doc) => {
    doc.addPage();
    at(doc, 'Top secret text', 72, 100, 12);
  });
}

/** `pages` pages, page k holding "Body of page k." (for the page cap). */
export function manyPagesPdf(pages: number): Promise<Buffer> {
  return pdfBytes({}, (doc) => {
    for (let k = 1; k <= pages; k++) {
      doc.addPage({ size: 'A4' });
      at(doc, `Body of page ${k}.`, 72, 100, 12);
    }
  });
}

/** The report PDF cut in half: its end (xref, trailer, %%EOF) is missing. */
export async function truncatedPdf(): Promise<Buffer> {
  const full = await reportPdf();
  return full.subarray(0, Math.floor(full.length / 2));
}

/** Starts like a PDF and ends like one, with garbage between. */
export function corruptPdf(): Buffer {
  const junk = Buffer.alloc(4096);
  for (let i = 0; i < junk.length; i++) junk[i] = (i * 7919) % 251;
  return Buffer.concat([Buffer.from('%PDF-1.7\n'), junk, Buffer.from('\n%%EOF\n')]);
}

export const TWO_COLUMN_PDF = {
  title: 'Two Column Article',
  /** Lines of each column, drawn row by row (left, right, left, ...). */
  left: Array.from({ length: 8 }, (_, k) => `Left column line ${k + 1} carries enough words to fill it.`),
  right: Array.from({ length: 8 }, (_, k) => `Right column line ${k + 1} carries enough words too.`),
  /** A table on page 2: short cells in aligned rows (read row by row). */
  table: [
    ['Alice', '30'],
    ['Bob', '41'],
    ['Carol', '27'],
    ['Dave', '35'],
    ['Erin', '52'],
    ['Frank', '44'],
  ],
} as const;

/** Page 1: a title over two columns of text; page 2: a two-column table. */
export function twoColumnPdf(): Promise<Buffer> {
  const t = TWO_COLUMN_PDF;
  return pdfBytes({ info: { Title: t.title } }, (doc) => {
    doc.addPage({ size: 'LETTER', margin: 72 });
    at(doc, t.title, 72, 80, 20);
    t.left.forEach((line, k) => {
      at(doc, line, 72, 140 + k * 15, 9);
      at(doc, t.right[k] ?? '', 320, 140 + k * 15, 9);
    });
    doc.addPage({ size: 'LETTER', margin: 72 });
    t.table.forEach(([name, age], k) => {
      at(doc, name ?? '', 72, 100 + k * 15, 11);
      at(doc, age ?? '', 300, 100 + k * 15, 11);
    });
  });
}

export const SAMPLE_DOCX = {
  title: 'Project Plan',
  author: 'John Smith',
  heading: 'Project Plan Overview',
  subheading: 'Milestones',
  paragraph: 'This plan describes the work for the next release.',
  bullets: ['Design the API', 'Write the tests', 'Ship the release'],
  table: [
    ['Phase', 'Owner'],
    ['Design', 'Alice'],
    ['Build', 'Bob'],
  ],
  linkText: 'the project site',
  linkUrl: 'https://example.com/project',
} as const;

/** A Word file with a heading, a subheading, paragraphs, a bullet list, a table and a hyperlink. */
export function sampleDocx(): Promise<Buffer> {
  const d = SAMPLE_DOCX;
  const doc = new Document({
    title: d.title,
    creator: d.author,
    sections: [
      {
        children: [
          new Paragraph({ text: d.heading, heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ text: d.paragraph }),
          new Paragraph({ text: d.subheading, heading: HeadingLevel.HEADING_2 }),
          ...d.bullets.map((b) => new Paragraph({ text: b, bullet: { level: 0 } })),
          new Table({
            rows: d.table.map(
              (row) =>
                new TableRow({
                  children: row.map((cell) => new TableCell({ children: [new Paragraph({ text: cell })] })),
                }),
            ),
          }),
          new Paragraph({
            alignment: AlignmentType.LEFT,
            children: [
              new TextRun('See '),
              new ExternalHyperlink({
                link: d.linkUrl,
                children: [new TextRun({ text: d.linkText, style: 'Hyperlink' })],
              }),
              new TextRun(' for details.'),
            ],
          }),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}
