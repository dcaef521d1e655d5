import { DocumentUnreadableError } from '@wcs/errors';
import {
  corruptPdf,
  DOCUMENT_FIXTURE_CREATED,
  encryptedPdf,
  manyPagesPdf,
  REPORT_PDF,
  reportPdf,
  scannedPdf,
  TWO_COLUMN_PDF,
  truncatedPdf,
  twoColumnPdf,
} from '@wcs/testing';
import { convertDocument } from './convert-document';
import { NO_TEXT_LAYER } from './pdf.converter';

async function reason(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(DocumentUnreadableError);
    const e = err as DocumentUnreadableError;
    expect(e.code).toBe('DOCUMENT_UNREADABLE');
    expect(e.status).toBe(422);
    return e.details?.reason;
  }
  throw new Error('expected an error');
}

describe('convertDocument (pdf)', () => {
  let report: Buffer;
  beforeAll(async () => {
    report = await reportPdf();
  });

  it('extracts text, headings by font size, page markers and metadata', async () => {
    const out = await convertDocument({ bytes: report, kind: 'pdf', onlyMainContent: false });
    const r = REPORT_PDF;
    expect(out.html).toContain(`<h1>${r.heading1}</h1>`);
    expect(out.html).toContain(`<h2>${r.heading2}</h2>`);
    expect(out.html).toContain('<h2>Outlook</h2>');
    // Two lines close together are one paragraph.
    expect(out.html).toContain(
      `<p>${r.body1} A second line of the same paragraph follows right below it.</p>`,
    );
    expect(out.html).toContain(`<p>${r.body2}</p>`);
    expect(out.html.match(/<hr data-page="\d+">/g)).toEqual([
      '<hr data-page="1">',
      '<hr data-page="2">',
      '<hr data-page="3">',
    ]);
    expect(out.html.indexOf(r.body2)).toBeGreaterThan(out.html.indexOf('<hr data-page="2">'));
    expect(out.metadata).toEqual({
      title: r.title,
      author: r.author,
      pages: 3,
      createdAt: DOCUMENT_FIXTURE_CREATED.toISOString(),
    });
    expect(out.warning).toBeUndefined();
    // Without onlyMainContent, running headers/footers stay.
    expect(out.html).toContain('Acme Corp Quarterly Report');
    expect(out.html).toContain('Page 2 of 3');
  });

  it('orders text by position on the page, not by drawing order', async () => {
    const out = await convertDocument({ bytes: report, kind: 'pdf', onlyMainContent: false });
    const earlier = out.html.indexOf(REPORT_PDF.earlierParagraph);
    const later = out.html.indexOf(REPORT_PDF.laterParagraph);
    expect(earlier).toBeGreaterThan(-1);
    expect(later).toBeGreaterThan(earlier);
  });

  it('reads a two-column page column by column, a two-column table row by row', async () => {
    const out = await convertDocument({ bytes: await twoColumnPdf(), kind: 'pdf', onlyMainContent: false });
    const t = TWO_COLUMN_PDF;
    const pos = (s: string) => out.html.indexOf(s);
    expect(pos(t.title)).toBeGreaterThan(-1);
    const order = [t.title, ...t.left, ...t.right].map(pos);
    expect(order.every((p) => p >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const rows = t.table.map(([name, age]) => pos(`${name} ${age}`));
    expect(rows.every((p) => p > pos('<hr data-page="2">'))).toBe(true);
    expect(rows).toEqual([...rows].sort((a, b) => a - b));
  });

  it('drops running headers, footers and page numbers with onlyMainContent', async () => {
    const out = await convertDocument({ bytes: report, kind: 'pdf', onlyMainContent: true });
    expect(out.html).not.toContain('Acme Corp Quarterly Report');
    expect(out.html).not.toContain('Confidential');
    expect(out.html).not.toMatch(/Page \d of 3/);
    expect(out.html).toContain(`<h1>${REPORT_PDF.heading1}</h1>`);
    expect(out.html).toContain(REPORT_PDF.body2);
  });

  it('finishes a PDF without a text layer with an empty body and NO_TEXT_LAYER', async () => {
    const out = await convertDocument({ bytes: await scannedPdf(), kind: 'pdf', onlyMainContent: true });
    expect(out.html).toBe('');
    expect(out.warning).toContain(NO_TEXT_LAYER);
    expect(out.metadata.pages).toBe(2);
  });

  it('cuts a long PDF at maxPages and says how many pages were read', async () => {
    const bytes = await manyPagesPdf(1000);
    const out = await convertDocument({ bytes, kind: 'pdf', onlyMainContent: false, maxPages: 5 });
    expect(out.metadata.pages).toBe(1000);
    expect(out.warning).toMatch(/1000 pages; only the first 5 were read/);
    expect(out.html).toContain('Body of page 5.');
    expect(out.html).not.toContain('Body of page 6.');
    expect(out.html.match(/<hr data-page=/g)).toHaveLength(5);
  });

  it('reads 500 pages by default', async () => {
    const out = await convertDocument({
      bytes: await manyPagesPdf(501),
      kind: 'pdf',
      onlyMainContent: false,
    });
    expect(out.warning).toMatch(/501 pages; only the first 500 were read/);
    expect(out.html).toContain('Body of page 500.');
    expect(out.html).not.toContain('Body of page 501.');
  });

  it('rejects an encrypted PDF as encrypted', async () => {
    expect(
      await reason(convertDocument({ bytes: await encryptedPdf(), kind: 'pdf', onlyMainContent: false })),
    ).toBe('encrypted');
  });

  it('rejects a truncated PDF as truncated', async () => {
    expect(
      await reason(convertDocument({ bytes: await truncatedPdf(), kind: 'pdf', onlyMainContent: false })),
    ).toBe('truncated');
  });

  it('rejects a corrupt PDF as corrupt', async () => {
    expect(await reason(convertDocument({ bytes: corruptPdf(), kind: 'pdf', onlyMainContent: false }))).toBe(
      'corrupt',
    );
  });
});
