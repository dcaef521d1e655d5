import { createServer } from 'node:http';
import {
  type FixtureSite,
  type ListeningServer,
  listenLocal,
  REPORT_PDF,
  reportPdf,
  SAMPLE_DOCX,
  sampleDocx,
  startFixtureSite,
} from '@wcs/testing';
import request from 'supertest';
import { balanceOf, createTestAccount, type Stack, startStack, type TestAccount } from './harness';

let stack: Stack;
let site: FixtureSite;
let account: TestAccount;

beforeAll(async () => {
  site = await startFixtureSite({ pages: 5 });
  stack = await startStack({ env: { FETCH_TIMEOUT_MS: '3000' } });
  account = await createTestAccount({ credits: 200 });
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

const scrape = (body: unknown, auth = account.auth) =>
  request(stack.url)
    .post('/v1/scrape')
    .set(auth)
    .send(body as object);

describe('POST /v1/scrape', () => {
  it('returns markdown, html, text and metadata of the main content, and charges 1 credit', async () => {
    const before = await balanceOf(account.accountId);
    const res = await scrape({ url: `${site.url}/` });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const data = res.body.data;
    expect(typeof data.markdown).toBe('string');
    expect(data.markdown.length).toBeGreaterThan(100);
    expect(typeof data.html).toBe('string');
    expect(typeof data.text).toBe('string');
    expect(data.metadata.statusCode).toBe(200);
    expect(typeof data.metadata.title).toBe('string');
    expect(data.metadata.sourceURL).toBe(`${site.url}/`);
    // GFM table and fenced code survive the pipeline.
    expect(data.markdown).toMatch(/\|\s*-{3,}/);
    expect(data.markdown).toContain('```');
    expect(await balanceOf(account.accountId)).toBe(before - 1);
  });

  it('says where the time went in a Server-Timing header: each stage, none longer than the total', async () => {
    const res = await scrape({ url: `${site.url}/article/1` });
    expect(res.status).toBe(200);
    const metrics = new Map(
      String(res.headers['server-timing'])
        .split(', ')
        .map((m) => {
          const [name, dur] = m.split(';dur=');
          return [name, Number(dur)] as const;
        }),
    );
    expect([...metrics.keys()]).toEqual([
      'gateway',
      'billing',
      'queue',
      'fetch',
      'content',
      'persist',
      'result',
      'total',
    ]);
    const total = metrics.get('total') ?? 0;
    // The service's own figures, checked against each other (no stopwatch of the test's).
    for (const [name, dur] of metrics) {
      expect({ name, dur: Number.isFinite(dur) && dur >= 0 }).toEqual({ name, dur: true });
      expect(dur).toBeLessThanOrEqual(total);
    }
    // A real fetch and conversion happened in the worker.
    expect((metrics.get('fetch') ?? 0) + (metrics.get('content') ?? 0)).toBeGreaterThan(0);
    // The stages account for the request (rounding and clock reads aside).
    const stages = [...metrics].filter(([n]) => n !== 'total').reduce((sum, [, ms]) => sum + ms, 0);
    expect(stages).toBeGreaterThan(total * 0.9);
    expect(stages).toBeLessThan(total * 1.1 + 1);
  });

  it('json format adds a structured document', async () => {
    const res = await scrape({ url: `${site.url}/`, format: 'json' });
    expect(res.status).toBe(200);
    expect(res.body.data.json).toBeDefined();
    expect(Array.isArray(res.body.data.json.blocks)).toBe(true);
  });

  it('renders a JavaScript-only page with the browser', async () => {
    const res = await scrape({ url: `${site.url}/js-only` });
    expect(res.status).toBe(200);
    expect(res.body.data.text.length).toBeGreaterThan(50);
  });

  it('decodes a latin-1 page (charset in header and in <meta>)', async () => {
    for (const path of ['/latin1', '/latin1-meta']) {
      const res = await scrape({ url: `${site.url}${path}`, onlyMainContent: false });
      expect(res.status).toBe(200);
      expect(res.body.data.text).toContain('café déjà vu');
    }
  });

  it('handles plain text and JSON targets; refuses images with 415', async () => {
    expect((await scrape({ url: `${site.url}/text` })).status).toBe(200);
    expect((await scrape({ url: `${site.url}/json` })).status).toBe(200);
    const img = await scrape({ url: `${site.url}/image.png` });
    expect(img.status).toBe(415);
    expect(img.body.code).toBe('UNSUPPORTED_CONTENT_TYPE');
  });

  describe('documents', () => {
    let files: ListeningServer;
    beforeAll(async () => {
      const pdf = await reportPdf();
      const docx = await sampleDocx();
      const zip = Buffer.concat([
        Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]),
        Buffer.alloc(2048, 7),
      ]);
      const bodies: Record<string, [Buffer, string | undefined]> = {
        '/report.pdf': [pdf, 'application/pdf'],
        '/download': [pdf, 'application/octet-stream'],
        '/untyped': [pdf, undefined],
        '/plan.docx': [docx, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
        '/plan-as-zip': [docx, 'application/zip'],
        '/archive.zip': [zip, 'application/zip'],
      };
      files = await listenLocal(
        createServer((req, res) => {
          const entry = bodies[req.url ?? ''];
          if (!entry) return void res.writeHead(404).end();
          res.writeHead(200, entry[1] ? { 'content-type': entry[1] } : {});
          res.end(entry[0]);
        }),
      );
    });
    afterAll(async () => {
      await files?.close();
    });

    it('a PDF is scraped whatever it is served as (also with engine browser)', async () => {
      for (const [path, engine] of [
        ['/report.pdf', 'auto'],
        ['/download', 'auto'],
        ['/untyped', 'fetch'],
        ['/report.pdf', 'browser'],
      ] as const) {
        const res = await scrape({ url: `${files.url}${path}`, engine });
        expect({ path, engine, status: res.status }).toEqual({ path, engine, status: 200 });
        expect(res.body.data.markdown).toContain(REPORT_PDF.body1);
      }
    });

    it('a Word file is scraped, by its type or its bytes; a plain ZIP stays 415', async () => {
      for (const path of ['/plan.docx', '/plan-as-zip']) {
        const res = await scrape({ url: `${files.url}${path}` });
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        expect(res.body.data.markdown).toContain(SAMPLE_DOCX.paragraph);
      }
      const zip = await scrape({ url: `${files.url}/archive.zip` });
      expect(zip.status).toBe(415);
      expect(zip.body.code).toBe('UNSUPPORTED_CONTENT_TYPE');
    });
  });

  it('a redirect loop is a 502 TOO_MANY_REDIRECTS and is refunded', async () => {
    const before = await balanceOf(account.accountId);
    const res = await scrape({ url: `${site.url}/redirect-loop` });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, code: 'TOO_MANY_REDIRECTS' });
    expect(typeof res.body.error).toBe('string');
    expect(await balanceOf(account.accountId)).toBe(before);
  });

  it('a slow page is a 504 TIMEOUT, not an empty success', async () => {
    const res = await scrape({ url: `${site.url}/slow`, timeout: 2000, engine: 'fetch' });
    expect(res.status).toBe(504);
    expect(res.body.code).toBe('TIMEOUT');
  });

  it('a 404 page fails with TARGET_HTTP_ERROR and costs nothing', async () => {
    const before = await balanceOf(account.accountId);
    const res = await scrape({ url: `${site.url}/404` });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('TARGET_HTTP_ERROR');
    expect(res.body.details.statusCode).toBe(404);
    expect(await balanceOf(account.accountId)).toBe(before);
  });

  it('a page too large is refused with TARGET_TOO_LARGE', async () => {
    const res = await scrape({ url: `${site.url}/huge`, engine: 'fetch' });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('TARGET_TOO_LARGE');
  });

  it('prepends https:// to a bare domain', async () => {
    // The fixture speaks plain HTTP, so an https:// attempt fails at TLS: proof of the prefix.
    const res = await scrape({ url: site.url.replace('http://', '') });
    expect(res.status).toBe(502);
    expect(res.body.code).toMatch(/TLS_ERROR|TARGET_UNREACHABLE/);
  });
});

describe('request validation', () => {
  it('401 without a key, with an unknown key', async () => {
    const none = await request(stack.url).post('/v1/scrape').send({ url: site.url });
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
    const bad = await scrape({ url: site.url }, { Authorization: 'Bearer wcs_nope' });
    expect(bad.status).toBe(401);
  });

  it('400 on invalid JSON', async () => {
    const res = await request(stack.url)
      .post('/v1/scrape')
      .set(account.auth)
      .set('Content-Type', 'application/json')
      .send('{"url": ');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_JSON');
  });

  it('400 naming the field on wrong types', async () => {
    const res = await scrape({ url: site.url, onlyMainContent: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.error).toContain('onlyMainContent');
    const missing = await scrape({ format: 'markdown' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain('url');
    const fmt = await scrape({ url: site.url, format: 'pdf' });
    expect(fmt.status).toBe(400);
    expect(fmt.body.error).toContain('format');
  });

  it('400 naming unknown fields (with a hint), nothing charged', async () => {
    const before = await balanceOf(account.accountId);
    const res = await scrape({ url: site.url, onlyMaincontent: false, stealthMode: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      code: 'VALIDATION_FAILED',
      error: 'Unrecognized fields "onlyMaincontent" (did you mean "onlyMainContent"?), "stealthMode"',
      details: expect.objectContaining({
        unrecognized: [{ field: 'onlyMaincontent', didYouMean: 'onlyMainContent' }, { field: 'stealthMode' }],
      }),
    });
    expect(await balanceOf(account.accountId)).toBe(before);
  });

  it('400 on non-http schemes', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'javascript:alert(1)']) {
      const res = await scrape({ url });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_URL');
    }
  });

  it('413 on an oversized body', async () => {
    const res = await scrape({ url: site.url, padding: 'x'.repeat(2 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('404 with the error shape on unknown routes', async () => {
    const res = await request(stack.url).get('/v1/nothing-here').set(account.auth);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });
});
