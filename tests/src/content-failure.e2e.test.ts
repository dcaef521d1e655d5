/**
 * A content-pipeline exception is a failed, refunded scrape — never an empty, billed document.
 * Real stack (gateway + scrape worker in this process, PostgreSQL, Redis). The seam: the
 * content package's metadata step throws for pages carrying a marker <meta>; every other page
 * goes through the real module, and the real processHtml turns the throw into the error.
 */
import { createServer } from 'node:http';
import { type ListeningServer, listenLocal } from '@wcs/testing';
import request from 'supertest';
import { balanceOf, createTestAccount, type Stack, startStack, type TestAccount } from './harness';

jest.mock('../../packages/content/src/extract/metadata.extractor', () => {
  const actual = jest.requireActual('../../packages/content/src/extract/metadata.extractor');
  const marked = (doc: unknown): boolean => {
    const stack: unknown[] = [doc];
    while (stack.length > 0) {
      const n = stack.pop() as { name?: string; attribs?: Record<string, string>; children?: unknown[] };
      if (n.name === 'meta' && n.attribs?.name === 'x-test-explode') return true;
      if (n.children) stack.push(...n.children);
    }
    return false;
  };
  return {
    ...actual,
    extractMetadata: (input: { doc: unknown }) => {
      if (marked(input.doc)) throw new TypeError('simulated bug in the content pipeline');
      return actual.extractMetadata(input);
    },
  };
});

const PAGE = (marker: boolean) =>
  `<html><head><title>Page</title>${marker ? '<meta name="x-test-explode" content="1">' : ''}</head>
   <body><article><p>${'A sentence of ordinary article text, with commas. '.repeat(20)}</p></article></body></html>`;

let stack: Stack;
let site: ListeningServer;
let account: TestAccount;

beforeAll(async () => {
  site = await listenLocal(
    createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE(req.url === '/broken'));
    }),
  );
  // The seam above is a jest module mock, which exists only in this thread: the worker's pool
  // (created from the env it parsed) converts in-process.
  stack = await startStack({ env: { CONTENT_POOL_THREADS: '0' } });
  account = await createTestAccount({ credits: 50 });
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

describe('content pipeline exceptions', () => {
  it('POST /v1/scrape: 500 CONTENT_PROCESSING_FAILED naming the URL, and the credit is refunded', async () => {
    const before = await balanceOf(account.accountId);
    const res = await request(stack.url)
      .post('/v1/scrape')
      .set(account.auth)
      .send({ url: `${site.url}/broken` });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ success: false, code: 'CONTENT_PROCESSING_FAILED' });
    expect(res.body.error).toContain('/broken');
    expect(res.body.error).not.toContain('simulated');
    expect(await balanceOf(account.accountId)).toBe(before);
    // the same stack still converts ordinary pages (and bills them)
    const ok = await request(stack.url)
      .post('/v1/scrape')
      .set(account.auth)
      .send({ url: `${site.url}/fine` });
    expect(ok.status).toBe(200);
    expect(ok.body.data.markdown).toContain('ordinary article text');
    expect(await balanceOf(account.accountId)).toBe(before - 1);
  });

  it('POST /v1/batch/scrape: the item fails with the code and its credit is refunded', async () => {
    const before = await balanceOf(account.accountId);
    const start = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(account.auth)
      .send({ urls: [`${site.url}/broken`, `${site.url}/fine`] });
    expect(start.status).toBe(202);
    let body: { status: string; results: Array<{ status: string; code?: string; url: string }> } | null =
      null;
    for (let i = 0; i < 150; i++) {
      const poll = await request(stack.url).get(`/v1/batch/scrape/${start.body.id}`).set(account.auth);
      body = poll.body;
      if (body?.status === 'done') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(body?.status).toBe('done');
    expect(body?.results.map((r) => [r.url.endsWith('/broken'), r.status])).toEqual([
      [true, 'failed'],
      [false, 'done'],
    ]);
    expect(body?.results[0]?.code).toBe('CONTENT_PROCESSING_FAILED');
    expect(await balanceOf(account.accountId)).toBe(before - 1);
  }, 60_000);
});
