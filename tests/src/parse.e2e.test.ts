/**
 * POST /v1/parse and /firecrawl/v2/parse end to end: gateway + scrape worker in this process,
 * real PostgreSQL and Redis, files made by the fixture generators of @wcs/testing and sent as a
 * form (the Firecrawl SDK's shape) or as the raw body.
 */
import { CreditsRepository, createDb } from '@wcs/db';
import { corruptPdf, REPORT_PDF, reportPdf, SAMPLE_DOCX, sampleDocx } from '@wcs/testing';
import request from 'supertest';
import {
  balanceOf,
  createTestAccount,
  type Stack,
  startStack,
  TEST_DATABASE_URL,
  type TestAccount,
} from './harness';

/** Above the report PDF and the sample DOCX (a few KB each). */
const MAX_DOCUMENT_BYTES = 200_000;
const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const HTML_PAGE = Buffer.from(
  '<!doctype html><html><head><title>Uploaded page</title></head><body>' +
    '<nav>Site menu that is not content</nav><main><h1>Uploaded heading</h1>' +
    '<p>An HTML file sent by its owner, with enough words in it to count as the content of a page.</p>' +
    '<p><a href="/relative">a relative link</a> and <a href="https://example.com/abs">an absolute one</a></p>' +
    '<aside class="promo">Promotional box</aside></main></body></html>',
);

/** The account's scrape charges and refunds, oldest first. */
async function scrapeLedger(accountId: string): Promise<Array<{ amount: number; reason: string }>> {
  const db = createDb(TEST_DATABASE_URL);
  try {
    const rows = await new CreditsRepository(db).ledger(accountId, 100);
    return rows
      .filter((r) => r.reason === 'scrape' || r.reason === 'scrape_refund')
      .map((r) => ({ amount: r.amount, reason: r.reason }))
      .reverse();
  } finally {
    await db.close();
  }
}

let stack: Stack;
let pdf: Buffer;
let docx: Buffer;

beforeAll(async () => {
  stack = await startStack({
    env: { MAX_DOCUMENT_BYTES: String(MAX_DOCUMENT_BYTES), BROWSER_ENABLED: 'false' },
  });
  pdf = await reportPdf();
  docx = await sampleDocx();
});
afterAll(async () => {
  await stack?.close();
});

describe('POST /v1/parse', () => {
  let account: TestAccount;
  beforeEach(async () => {
    account = await createTestAccount({ credits: 100 });
  });

  const parse = (query = '') => request(stack.url).post(`/v1/parse${query}`).set(account.auth);

  it('a PDF as a form: the document a scrape of it gives; 1 credit, charged once', async () => {
    const res = await parse().attach('file', pdf, { filename: 'report.pdf', contentType: PDF });
    expect(res.status).toBe(200);
    const md: string = res.body.data.markdown;
    expect(md).toMatch(new RegExp(`^# ${REPORT_PDF.heading1}$`, 'm'));
    expect(md).toContain(REPORT_PDF.body1);
    expect(md).toContain('<!-- page 2 -->');
    expect(res.body.data.metadata).toMatchObject({
      title: REPORT_PDF.title,
      author: REPORT_PDF.author,
      pages: REPORT_PDF.pages,
      contentType: PDF,
      sourceURL: 'file:///report.pdf',
      statusCode: 200,
    });
    expect(await balanceOf(account.accountId)).toBe(99);
    expect(await scrapeLedger(account.accountId)).toEqual([{ amount: -1, reason: 'scrape' }]);
  });

  it('a DOCX as the raw body, options in the query string', async () => {
    const res = await parse('?formats=markdown,links&filename=plan.docx')
      .set('Content-Type', DOCX)
      .send(docx);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['links', 'markdown', 'metadata']);
    expect(res.body.data.markdown).toContain(SAMPLE_DOCX.heading);
    expect(res.body.data.markdown).toContain(SAMPLE_DOCX.paragraph);
    expect(res.body.data.links).toContain(SAMPLE_DOCX.linkUrl);
    expect(res.body.data.metadata).toMatchObject({ contentType: DOCX, sourceURL: 'file:///plan.docx' });
    expect(await balanceOf(account.accountId)).toBe(99);
  });

  it('an HTML file with an options part: formats, onlyMainContent and tag filters apply', async () => {
    const res = await parse()
      .field('options', JSON.stringify({ formats: ['markdown', 'links'], excludeTags: ['.promo'] }))
      .attach('file', HTML_PAGE, { filename: 'page.html', contentType: 'text/html' });
    expect(res.status).toBe(200);
    const md: string = res.body.data.markdown;
    expect(md).toContain('# Uploaded heading');
    expect(md).toContain('enough words in it');
    expect(md).not.toContain('Promotional box');
    expect(md).not.toContain('Site menu');
    expect(res.body.data.links).toEqual(expect.arrayContaining(['https://example.com/abs']));
    expect(res.body.data.metadata).toMatchObject({ title: 'Uploaded page', contentType: 'text/html' });
    // Plain form fields work too, and onlyMainContent=false keeps the menu.
    const all = await parse()
      .field('onlyMainContent', 'false')
      .field('formats', 'markdown')
      .attach('file', HTML_PAGE, { filename: 'page.html', contentType: 'text/html' });
    expect(all.status).toBe(200);
    expect(all.body.data.markdown).toContain('Site menu');
  });

  it('the type is read from the bytes: a PDF labelled text/html, HTML labelled a PDF', async () => {
    const asHtml = await parse().set('Content-Type', 'text/html').send(pdf);
    expect(asHtml.status).toBe(200);
    expect(asHtml.body.data.metadata.contentType).toBe(PDF);
    expect(asHtml.body.data.markdown).toContain(REPORT_PDF.body1);
    const asPdf = await parse().attach('file', HTML_PAGE, { filename: 'fake.pdf', contentType: PDF });
    expect(asPdf.status).toBe(200);
    expect(asPdf.body.data.metadata.contentType).toBe('text/html');
    expect(asPdf.body.data.markdown).toContain('# Uploaded heading');
    const docxAsPdf = await parse().set('Content-Type', PDF).send(docx);
    expect(docxAsPdf.status).toBe(200);
    expect(docxAsPdf.body.data.metadata.contentType).toBe(DOCX);
    expect(await balanceOf(account.accountId)).toBe(97);
  });

  it('a damaged PDF is 422 DOCUMENT_UNREADABLE and costs nothing (charged, then refunded)', async () => {
    const res = await parse().attach('file', corruptPdf(), { filename: 'broken.pdf', contentType: PDF });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, code: 'DOCUMENT_UNREADABLE' });
    const cut = await parse()
      .set('Content-Type', PDF)
      .send(pdf.subarray(0, Math.floor(pdf.length / 2)));
    expect(cut.status).toBe(422);
    expect(cut.body.code).toBe('DOCUMENT_UNREADABLE');
    expect(await balanceOf(account.accountId)).toBe(100);
    expect(await scrapeLedger(account.accountId)).toEqual([
      { amount: -1, reason: 'scrape' },
      { amount: 1, reason: 'scrape_refund' },
      { amount: -1, reason: 'scrape' },
      { amount: 1, reason: 'scrape_refund' },
    ]);
  });

  it('bytes of another kind are 415 before any charge', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
    const res = await parse().set('Content-Type', PDF).send(png);
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ success: false, code: 'UNSUPPORTED_CONTENT_TYPE' });
    const zip = await parse().attach('file', Buffer.from('PK\u0003\u0004not a word file'), 'x.docx');
    expect(zip.status).toBe(415);
    expect(await scrapeLedger(account.accountId)).toEqual([]);
  });

  it('a file over MAX_DOCUMENT_BYTES is 413 PAYLOAD_TOO_LARGE, raw or in a form; nothing charged', async () => {
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(MAX_DOCUMENT_BYTES, 0x20)]);
    const raw = await parse().set('Content-Type', PDF).send(big);
    expect(raw.status).toBe(413);
    expect(raw.body).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
    expect(raw.body.error).toContain(String(MAX_DOCUMENT_BYTES));
    const form = await parse().attach('file', big, { filename: 'big.pdf', contentType: PDF });
    expect(form.status).toBe(413);
    expect(form.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await scrapeLedger(account.accountId)).toEqual([]);
    // The gateway still answers on the next request.
    const ok = await parse().set('Content-Type', PDF).send(pdf);
    expect(ok.status).toBe(200);
  });

  it('options that say how a page is fetched, and formats a file has not, are 400 naming them', async () => {
    const wait = await parse('?waitFor=1000').set('Content-Type', PDF).send(pdf);
    expect(wait.status).toBe(400);
    expect(wait.body).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'waitFor' } });
    expect(wait.body.error).toContain('does not apply to an uploaded file');
    const shot = await parse()
      .field('options', JSON.stringify({ formats: ['screenshot'] }))
      .attach('file', pdf, 'report.pdf');
    expect(shot.status).toBe(400);
    expect(shot.body.details.field).toBe('formats.0');
    const noFile = await parse().field('options', '{}');
    expect(noFile.status).toBe(400);
    expect(noFile.body.details.field).toBe('file');
    const json = await parse().set('Content-Type', 'application/json').send({ url: 'https://example.com' });
    expect(json.status).toBe(415);
    const empty = await parse().set('Content-Type', PDF).send(Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(await scrapeLedger(account.accountId)).toEqual([]);
  });

  it('a raw body labelled as a form (curl --data-binary sends that type) is the file', async () => {
    // fetch sends the bytes as they are (supertest would serialise a form).
    const send = (query: string, bytes: Buffer) =>
      fetch(`${stack.url}/v1/parse${query}`, {
        method: 'POST',
        headers: { ...account.auth, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: bytes,
      });
    const res = await send('?formats=markdown', pdf);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { data: { markdown: string; metadata: { contentType: string } } };
    expect(doc.data.markdown).toContain(REPORT_PDF.body1);
    expect(doc.data.metadata.contentType).toBe(PDF);
    const html = await send('', HTML_PAGE);
    expect(html.status).toBe(200);
    expect(((await html.json()) as { data: { markdown: string } }).data.markdown).toContain(
      'Uploaded heading',
    );
    expect(await scrapeLedger(account.accountId)).toEqual([
      { amount: -1, reason: 'scrape' },
      { amount: -1, reason: 'scrape' },
    ]);
  });

  it('needs an API key', async () => {
    const res = await request(stack.url).post('/v1/parse').set('Content-Type', PDF).send(pdf);
    expect(res.status).toBe(401);
  });
});

describe('POST /firecrawl/v2/parse', () => {
  it("the SDK's form (a file part, an options JSON part) -> a Firecrawl document; 1 credit", async () => {
    const account = await createTestAccount({ credits: 10 });
    const res = await request(stack.url)
      .post('/firecrawl/v2/parse')
      .set(account.auth)
      .field('options', JSON.stringify({ formats: ['markdown', 'html'], origin: 'js-sdk@4.0.0' }))
      .attach('file', docx, { filename: 'plan.docx', contentType: DOCX });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.markdown).toContain(SAMPLE_DOCX.heading);
    expect(res.body.data.html).toContain(SAMPLE_DOCX.paragraph);
    expect(res.body.data.metadata).toMatchObject({ creditsUsed: 1, sourceURL: 'file:///plan.docx' });
    expect(await balanceOf(account.accountId)).toBe(9);

    const refused = await request(stack.url)
      .post('/firecrawl/v2/parse')
      .set(account.auth)
      .field(
        'options',
        JSON.stringify({ formats: ['markdown'], actions: [{ type: 'wait', milliseconds: 5 }] }),
      )
      .attach('file', docx, 'plan.docx');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('actions');
    expect(await balanceOf(account.accountId)).toBe(9);
  });

  it('a PDF and an HTML file through the SDK form; proxy "basic" and "auto" change nothing, "stealth" is refused', async () => {
    const account = await createTestAccount({ credits: 10 });
    const fcParse = () => request(stack.url).post('/firecrawl/v2/parse').set(account.auth);
    const fromPdf = await fcParse()
      .field('options', JSON.stringify({ formats: ['markdown'], proxy: 'basic' }))
      .attach('file', pdf, { filename: 'report.pdf', contentType: PDF });
    expect(fromPdf.status).toBe(200);
    expect(fromPdf.body.data.markdown).toMatch(new RegExp(`^# ${REPORT_PDF.heading1}$`, 'm'));
    expect(fromPdf.body.data.metadata).toMatchObject({
      creditsUsed: 1,
      sourceURL: 'file:///report.pdf',
      title: REPORT_PDF.title,
    });
    const fromHtml = await fcParse()
      .field('options', JSON.stringify({ formats: ['markdown', 'links'], onlyMainContent: true }))
      .field('proxy', 'auto')
      .attach('file', HTML_PAGE, { filename: 'page.html', contentType: 'text/html' });
    expect(fromHtml.status).toBe(200);
    expect(fromHtml.body.data.markdown).toContain('Uploaded heading');
    expect(fromHtml.body.data.markdown).not.toContain('Site menu');
    expect(fromHtml.body.data.links).toEqual(expect.arrayContaining(['https://example.com/abs']));
    expect(fromHtml.body.data.metadata).toMatchObject({ creditsUsed: 1, sourceURL: 'file:///page.html' });
    expect(await balanceOf(account.accountId)).toBe(8);

    const stealth = await fcParse()
      .field('options', JSON.stringify({ proxy: 'stealth' }))
      .attach('file', pdf, 'report.pdf');
    expect(stealth.status).toBe(400);
    expect(stealth.body.details.field).toBe('proxy');
    const twice = await fcParse()
      .field('options', JSON.stringify({ proxy: 'basic' }))
      .field('proxy', 'basic')
      .attach('file', pdf, 'report.pdf');
    expect(twice.status).toBe(400);
    expect(twice.body.error).toContain('proxy');
    expect(await balanceOf(account.accountId)).toBe(8);
  });
});
