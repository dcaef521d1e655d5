/**
 * Documents (PDF, DOCX) end to end through the API: gateway + scrape worker (and the
 * extract worker, the monitor scheduler) in this process, real PostgreSQL and Redis, the fixture
 * generators of @wcs/testing served by a local server as application/pdf, as
 * application/octet-stream and with no type. The crawl case is in crawl-documents.e2e.test.ts.
 */
import { createServer } from 'node:http';
import {
  corruptPdf,
  DOCUMENT_FIXTURE_CREATED,
  docxBomb,
  encryptedPdf,
  type FakeLlmServer,
  type ListeningServer,
  listenLocal,
  manyPagesPdf,
  REPORT_PDF,
  reportPdf,
  SAMPLE_DOCX,
  sampleDocx,
  scannedPdf,
  startFakeAnthropic,
  textSeenByModel,
  truncatedPdf,
} from '@wcs/testing';
import request from 'supertest';
import {
  balanceOf,
  createTestAccount,
  lastTwoLedgerRows,
  pollUntil,
  type Stack,
  startStack,
  type TestAccount,
} from './harness';

/** MAX_DOCUMENT_BYTES of this file's stack: above the 1,000-page PDF (~0.5 MB), below `/huge.pdf`. */
const MAX_DOCUMENT_BYTES = 1_000_000;
const PDF = 'application/pdf';
const OCTET = 'application/octet-stream';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A local file server; `set` replaces a file between requests (the monitor case). */
interface FileSite extends ListeningServer {
  set(path: string, body: Buffer, type: string | undefined): void;
}

async function startFileSite(): Promise<FileSite> {
  const files = new Map<string, [Buffer, string | undefined]>();
  const server = await listenLocal(
    createServer((req, res) => {
      const entry = files.get(req.url ?? '');
      if (!entry) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      res.writeHead(200, entry[1] ? { 'content-type': entry[1] } : {});
      res.end(entry[0]);
    }),
  );
  return Object.assign(server, {
    set: (path: string, body: Buffer, type: string | undefined) => void files.set(path, [body, type]),
  });
}

/** A body that starts like a PDF and is bigger than MAX_DOCUMENT_BYTES. */
function hugePdf(): Buffer {
  return Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(MAX_DOCUMENT_BYTES + 500_000, 0x20)]);
}

let site: FileSite;

beforeAll(async () => {
  site = await startFileSite();
  const report = await reportPdf();
  site.set('/report.pdf', report, PDF);
  site.set('/download', report, OCTET);
  site.set('/untyped', report, undefined);
  site.set('/scan.pdf', await scannedPdf(), PDF);
  site.set('/corrupt.pdf', corruptPdf(), PDF);
  site.set('/locked.pdf', await encryptedPdf(), OCTET);
  site.set('/cut.pdf', await truncatedPdf(), PDF);
  site.set('/thousand.pdf', await manyPagesPdf(1000), PDF);
  site.set('/huge.pdf', hugePdf(), PDF);
  site.set('/plan.docx', await sampleDocx(), DOCX);
  // 900 MiB of document.xml in ~0.92 MB (under this file's MAX_DOCUMENT_BYTES). The honest one
  // declares it (refused by the ratio cap before inflating); the lying one declares a small part,
  // and its ratio cap (200 x 0.92 MB) is above the 128 MiB total, which stops it while inflating.
  site.set('/bomb.docx', docxBomb({ inflatedBytes: 900 * 1024 ** 2 }), DOCX);
  site.set('/bomb-lying.docx', docxBomb({ inflatedBytes: 900 * 1024 ** 2, sizes: 'lying' }), OCTET);
  site.set(
    '/page.html',
    Buffer.from(
      '<!doctype html><html><head><title>Plain page</title></head><body><main><h1>Plain page</h1>' +
        '<p>An ordinary HTML page, scraped right after a damaged PDF, with enough words to be content.</p>' +
        '</main></body></html>',
    ),
    'text/html; charset=utf-8',
  );
});
afterAll(async () => {
  await site?.close();
});

describe('POST /v1/scrape of documents', () => {
  let stack: Stack;
  let account: TestAccount;

  beforeAll(async () => {
    stack = await startStack({
      env: { MAX_DOCUMENT_BYTES: String(MAX_DOCUMENT_BYTES), BROWSER_ENABLED: 'false' },
    });
    account = await createTestAccount({ credits: 500 });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const scrape = (body: Record<string, unknown>) =>
    request(stack.url).post('/v1/scrape').set(account.auth).send(body);

  it('a PDF: text in reading order, headings, page markers, metadata; 1 credit', async () => {
    for (const path of ['/report.pdf', '/download', '/untyped']) {
      const before = await balanceOf(account.accountId);
      const res = await scrape({ url: `${site.url}${path}` });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      const md: string = res.body.data.markdown;
      expect(md).toMatch(new RegExp(`^# ${REPORT_PDF.heading1}$`, 'm'));
      expect(md).toMatch(new RegExp(`^## ${REPORT_PDF.heading2}$`, 'm'));
      expect(md).toContain(REPORT_PDF.body1);
      // Pages in order, each behind its marker.
      const p1 = md.indexOf('<!-- page 1 -->');
      const p2 = md.indexOf('<!-- page 2 -->');
      const p3 = md.indexOf('<!-- page 3 -->');
      expect(p1).toBeGreaterThanOrEqual(0);
      expect(p2).toBeGreaterThan(md.indexOf(REPORT_PDF.body1));
      expect(md.indexOf(REPORT_PDF.body2)).toBeGreaterThan(p2);
      expect(p3).toBeGreaterThan(md.indexOf(REPORT_PDF.body2));
      // Reading order is by position on the page, not drawing order.
      expect(md.indexOf(REPORT_PDF.earlierParagraph)).toBeGreaterThan(p3);
      expect(md.indexOf(REPORT_PDF.laterParagraph)).toBeGreaterThan(md.indexOf(REPORT_PDF.earlierParagraph));
      expect(res.body.data.metadata).toMatchObject({
        title: REPORT_PDF.title,
        author: REPORT_PDF.author,
        statusCode: 200,
        sourceURL: `${site.url}${path}`,
      });
      expect(res.body.data.warning).toBeUndefined();
      expect(await balanceOf(account.accountId)).toBe(before - 1);
    }
  });

  it('documents never enter the page cache: maxAge fetches the file again', async () => {
    site.set('/cached.pdf', await reportPdf(), PDF);
    const first = await scrape({ url: `${site.url}/cached.pdf`, maxAge: 600_000 });
    expect(first.status).toBe(200);
    expect(first.body.data.metadata.pages).toBe(3);
    site.set('/cached.pdf', await manyPagesPdf(2), PDF);
    const second = await scrape({ url: `${site.url}/cached.pdf`, maxAge: 600_000 });
    expect(second.status).toBe(200);
    expect(second.body.data.metadata.pages).toBe(2);
    expect(second.body.data.metadata.cacheState).not.toBe('hit');
  });

  it('a PDF: metadata has the page count and the creation date', async () => {
    const res = await scrape({ url: `${site.url}/report.pdf` });
    expect(res.status).toBe(200);
    expect(res.body.data.metadata).toMatchObject({
      pages: REPORT_PDF.pages,
      createdAt: DOCUMENT_FIXTURE_CREATED.toISOString(),
      contentType: 'application/pdf',
    });
  });

  it('formats html and text: the same text, no markdown, no page comments', async () => {
    const res = await scrape({ url: `${site.url}/report.pdf`, formats: ['html', 'text'] });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['html', 'metadata', 'text']);
    const { html, text } = res.body.data as { html: string; text: string };
    expect(html).toMatch(new RegExp(`<h1[^>]*>${REPORT_PDF.heading1}</h1>`));
    expect(html).toContain(REPORT_PDF.body2);
    expect(text).toContain(REPORT_PDF.body1);
    expect(text).toContain(REPORT_PDF.laterParagraph);
    expect(text).not.toContain('<!--');
    expect(text).not.toContain('<h1');
  });

  it('onlyMainContent drops the running header, footer and page numbers; false keeps them', async () => {
    const main = await scrape({ url: `${site.url}/report.pdf` });
    const all = await scrape({ url: `${site.url}/report.pdf`, onlyMainContent: false });
    expect([main.status, all.status]).toEqual([200, 200]);
    for (const running of ['Acme Corp Quarterly Report', 'Confidential', 'Page 2 of 3']) {
      expect(main.body.data.markdown).not.toContain(running);
      expect(all.body.data.markdown).toContain(running);
    }
    expect(main.body.data.markdown).toContain(REPORT_PDF.body2);
  });

  it('a PDF without a text layer: 200, empty markdown and a NO_TEXT_LAYER warning, charged', async () => {
    const before = await balanceOf(account.accountId);
    const res = await scrape({ url: `${site.url}/scan.pdf` });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown.trim()).toBe('');
    expect(res.body.data.warning).toMatch(/^NO_TEXT_LAYER\b/);
    expect(await balanceOf(account.accountId)).toBe(before - 1);
  });

  it('the page cap: the first 500 pages of 1,000 are read and the warning says so', async () => {
    // onlyMainContent (the default) on: "Body of page k." sits at the same height on every page
    // and looks like a running line, but a page is never emptied by the running-line rule.
    const res = await scrape({ url: `${site.url}/thousand.pdf`, formats: ['markdown'] });
    expect(res.status).toBe(200);
    const md: string = res.body.data.markdown;
    expect(md).toContain('Body of page 1.');
    expect(md).toContain('Body of page 500.');
    expect(md).not.toContain('Body of page 501.');
    expect(res.body.data.warning).toContain('1000 pages');
    expect(res.body.data.warning).toContain('first 500');
  }, 60_000);

  it.each([
    ['/corrupt.pdf', 'corrupt', /damaged|cannot be read/i],
    ['/locked.pdf', 'encrypted', /password/i],
    ['/cut.pdf', 'truncated', /truncated/i],
  ])('%s (%s): 422 DOCUMENT_UNREADABLE, refunded', async (path, _reason, message) => {
    const before = await balanceOf(account.accountId);
    const res = await scrape({ url: `${site.url}${path}` });
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(res.body.code).toBe('DOCUMENT_UNREADABLE');
    expect(res.body.error).toMatch(message);
    expect(await balanceOf(account.accountId)).toBe(before);
    const [refund, charge] = await lastTwoLedgerRows(account.accountId);
    expect(charge).toMatchObject({ amount: -1, reference: refund?.reference });
    expect(refund).toMatchObject({ amount: 1 });
  });

  it('a document over MAX_DOCUMENT_BYTES: 502 TARGET_TOO_LARGE, refunded', async () => {
    const before = await balanceOf(account.accountId);
    const res = await scrape({ url: `${site.url}/huge.pdf` });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('TARGET_TOO_LARGE');
    expect(res.body.error).toContain('MAX_DOCUMENT_BYTES');
    expect(await balanceOf(account.accountId)).toBe(before);
  });

  it('the worker keeps serving: an HTML page right after a corrupt PDF', async () => {
    expect((await scrape({ url: `${site.url}/corrupt.pdf` })).status).toBe(422);
    const res = await scrape({ url: `${site.url}/page.html` });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain('An ordinary HTML page');
    const pdf = await scrape({ url: `${site.url}/report.pdf` });
    expect(pdf.status).toBe(200);
  });

  it('a DOCX: headings, list, table and link; metadata', async () => {
    const res = await scrape({ url: `${site.url}/plan.docx` });
    expect(res.status).toBe(200);
    const md: string = res.body.data.markdown;
    expect(md).toMatch(new RegExp(`^# ${SAMPLE_DOCX.heading}$`, 'm'));
    expect(md).toMatch(new RegExp(`^## ${SAMPLE_DOCX.subheading}$`, 'm'));
    for (const b of SAMPLE_DOCX.bullets) expect(md).toMatch(new RegExp(`^[-*] ${b}$`, 'm'));
    // A GFM table with the header row and the body rows.
    expect(md).toMatch(/\|\s*Phase\s*\|\s*Owner\s*\|/);
    expect(md).toMatch(/\|\s*-{3,}/);
    expect(md).toMatch(/\|\s*Build\s*\|\s*Bob\s*\|/);
    expect(md).toContain(`[${SAMPLE_DOCX.linkText}](${SAMPLE_DOCX.linkUrl})`);
    expect(res.body.data.metadata).toMatchObject({ title: SAMPLE_DOCX.title, author: SAMPLE_DOCX.author });
  });

  it.each([
    ['/bomb.docx', 'DOCUMENT_MAX_INFLATE_RATIO'],
    ['/bomb-lying.docx', 'DOCUMENT_MAX_INFLATED_BYTES'],
  ])(
    'a DOCX that inflates to 900 MiB (%s): 502 TARGET_TOO_LARGE naming %s, refunded',
    async (path, limit) => {
      const before = await balanceOf(account.accountId);
      const res = await scrape({ url: `${site.url}${path}` });
      expect(res.status).toBe(502);
      expect(res.body.code).toBe('TARGET_TOO_LARGE');
      expect(res.body.error).toContain(limit);
      expect(await balanceOf(account.accountId)).toBe(before);
      // The worker serves on: the ordinary Word file right after converts.
      const next = await scrape({ url: `${site.url}/plan.docx` });
      expect(next.status).toBe(200);
      expect(next.body.data.markdown).toContain(SAMPLE_DOCX.heading);
    },
  );

  it('a batch of a PDF and a DOCX: both done, 2 credits', async () => {
    const before = await balanceOf(account.accountId);
    const urls = [`${site.url}/download`, `${site.url}/plan.docx`];
    const start = await request(stack.url).post('/v1/batch/scrape').set(account.auth).send({ urls });
    expect(start.status).toBe(202);
    const done = await pollUntil(async () => {
      const res = await request(stack.url).get(`/v1/batch/scrape/${start.body.id}`).set(account.auth);
      return res.body.status === 'done' ? res.body : undefined;
    }, 60_000);
    expect(done).toMatchObject({ total: 2, completed: 2, failed: 0, creditsUsed: 2 });
    expect(done.results.map((r: { url: string }) => r.url)).toEqual(urls);
    expect(done.results[0].data.markdown).toContain(REPORT_PDF.body1);
    expect(done.results[1].data.markdown).toContain(SAMPLE_DOCX.paragraph);
    expect(await balanceOf(account.accountId)).toBe(before - 2);
  });
});

describe('POST /v1/extract of a PDF', () => {
  let stack: Stack;
  let fake: FakeLlmServer;
  let account: TestAccount;

  beforeAll(async () => {
    fake = await startFakeAnthropic();
    stack = await startStack({
      worker: false,
      extractWorker: true,
      env: {
        BROWSER_ENABLED: 'false',
        ANTHROPIC_API_KEY: 'sk-ant-test-key',
        ANTHROPIC_BASE_URL: fake.url,
        EXTRACT_MODEL: 'claude-fake',
        EXTRACT_MODEL_MAX_RETRIES: '0',
      },
    });
    account = await createTestAccount({ plan: 'hobby', credits: 100 });
  });
  afterAll(async () => {
    await stack?.close();
    await fake?.close();
  });

  it('the model receives the text of the document (main content: no running lines)', async () => {
    fake.script(() => ({ data: { title: REPORT_PDF.heading1 } }));
    const res = await request(stack.url)
      .post('/v1/extract')
      .set(account.auth)
      .send({ url: `${site.url}/download`, schema: { title: 'string' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ title: REPORT_PDF.heading1 });
    expect(fake.requests).toHaveLength(1);
    const seen = textSeenByModel(fake.requests[0]!);
    expect(seen).toContain(REPORT_PDF.body1);
    expect(seen).toContain(REPORT_PDF.body2);
    expect(seen).toContain(REPORT_PDF.earlierParagraph);
    expect(seen).not.toContain('Confidential');
    expect(seen).not.toContain('%PDF');
  });
});

describe('a monitor on a PDF', () => {
  /** hourly = 2 s here. */
  const INTERVAL_MS = 2_000;
  let stack: Stack;
  let account: TestAccount;
  let id = '';

  beforeAll(async () => {
    stack = await startStack({
      worker: false,
      monitorScheduler: true,
      env: { BROWSER_ENABLED: 'false', MONITOR_INTERVAL_SCALE: String(INTERVAL_MS / 3_600_000) },
    });
    account = await createTestAccount({ credits: 100 });
  });
  afterAll(async () => {
    // Cancelled so that later runs' schedulers (rebuilt from the shared database) never pick it up.
    if (id) await request(stack.url).delete(`/v1/monitor/${id}`).set(account.auth);
    await stack?.close();
  });

  type Detail = {
    checkCount: number;
    changes: Array<{ snapshot: string; previousSnapshot: string | null }>;
    checks: Array<{ changed: boolean; hash?: string; code?: string }>;
  };
  const detail = async (): Promise<Detail> =>
    (await request(stack.url).get(`/v1/monitor/${id}`).set(account.auth).expect(200)).body.data as Detail;

  it('checks hash the text: a change in the PDF text is a change', async () => {
    // One page (running-line removal needs two), then the report: monitors read main content only.
    site.set('/watched.pdf', await manyPagesPdf(1), PDF);
    const res = await request(stack.url)
      .post('/v1/monitor')
      .set(account.auth)
      .send({ url: `${site.url}/watched.pdf`, interval: 'hourly' });
    expect(res.status).toBe(201);
    id = res.body.data.id as string;
    // Two checks of the same file: a baseline with a text hash, and no change.
    const steady = await pollUntil(async () => {
      const d = await detail();
      return d.checkCount >= 2 ? d : undefined;
    }, 30_000);
    expect(steady.checks.every((c) => c.code === undefined && /^[0-9a-f]{64}$/.test(c.hash ?? ''))).toBe(
      true,
    );
    expect(steady.changes).toEqual([]);

    site.set('/watched.pdf', await reportPdf(), PDF);
    const changed = await pollUntil(async () => {
      const d = await detail();
      return d.changes.length > 0 ? d : undefined;
    }, 30_000);
    expect(changed.changes).toHaveLength(1);
    expect(changed.changes[0]?.snapshot).toContain(REPORT_PDF.body1);
    expect(changed.changes[0]?.snapshot).not.toContain('Body of page 1.');
    expect(changed.changes[0]?.previousSnapshot).toContain('Body of page 1.');
  }, 90_000);
});
