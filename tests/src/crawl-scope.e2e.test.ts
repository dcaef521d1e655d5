/**
 * What a crawl may reach: `allowExternalLinks` (links off the start URL's site) and
 * `sitemap: "only"` (the start page and the sitemap's URLs, no link followed), on /v1/crawl and on
 * the Firecrawl-compatible routes (v1 and v2 names).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FixtureSite, startFixtureSite } from '@wcs/testing';
import request from 'supertest';
import { type CrawlStatusBody, startCrawl, waitForCrawl } from './crawl-helpers';
import { createTestAccount, pollUntil, type Stack, startStack, type TestAccount } from './harness';

let stack: Stack;
let other: FixtureSite;
let hub: Server;
let hubUrl: string;
let account: TestAccount;
const hubHits: string[] = [];

// Several crawls per test, on a machine that may be busy: no tight per-test bound.
jest.setTimeout(240_000);

const page = (title: string, body: string) =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${title} is a page of the hub site with enough words in it to be read as a real page.</p>${body}</main></body></html>`;

beforeAll(async () => {
  other = await startFixtureSite({ pages: 5, sitemapPaths: ['/tree/3/3/3', '/tree/2', '/article/1'] });
  // The hub: its own page /local, and links to another site (another port: another site),
  // one of them under that site's robots.txt Disallow (/private/).
  hub = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hubHits.push(path);
    const send = (status: number, html: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    };
    if (path === '/')
      return send(
        200,
        page(
          'Hub',
          `<a href="/local">local</a> <a href="${other.url}/article/0">article</a> ` +
            `<a href="${other.url}/private/secret">private</a> <a href="${other.url}/tree">tree</a>`,
        ),
      );
    if (path === '/local') return send(200, page('Local', '<p>Nothing more here.</p>'));
    return send(404, page('Not found', ''));
  });
  await new Promise<void>((resolve) => hub.listen(0, '127.0.0.1', resolve));
  hubUrl = `http://127.0.0.1:${(hub.address() as AddressInfo).port}`;
  stack = await startStack({
    worker: false,
    crawlWorker: true,
    env: { WORKER_CONCURRENCY: '4' },
  });
  account = await createTestAccount({ credits: 1_000 });
});
afterAll(async () => {
  await stack?.close();
  await other?.close();
  await new Promise((resolve) => hub?.close(resolve));
});

const urlsOf = (done: CrawlStatusBody) => done.pages.map((p) => p.url).sort();
const otherHits = (path: string) => other.requests.filter((r) => r.path === path).length;

type FirecrawlBody = { status?: string; data?: Array<{ metadata?: { sourceURL?: string } }> };

async function firecrawlCrawl(version: 'v1' | 'v2', body: Record<string, unknown>): Promise<string[]> {
  const start = await request(stack.url).post(`/firecrawl/${version}/crawl`).set(account.auth).send(body);
  expect(start.status).toBe(200);
  const done = await pollUntil(async () => {
    const res = await request(stack.url)
      .get(`/firecrawl/${version}/crawl/${start.body.id}`)
      .set(account.auth);
    expect(res.status).toBe(200);
    const b = res.body as FirecrawlBody;
    return ['completed', 'failed', 'cancelled'].includes(String(b.status)) ? b : undefined;
  }, 60_000);
  expect(done.status).toBe('completed');
  return (done.data ?? []).map((d) => d.metadata?.sourceURL ?? '').sort();
}

describe('allowExternalLinks', () => {
  it('off (the default): links to another site are not followed', async () => {
    const id = await startCrawl(stack.url, account.auth, { url: `${hubUrl}/`, maxDepth: 1 });
    const done = await waitForCrawl(stack.url, id, account.auth);
    expect(done).toMatchObject({ status: 'done', stopReason: 'completed' });
    expect(urlsOf(done)).toEqual([`${hubUrl}/`, `${hubUrl}/local`]);
    expect(otherHits('/article/0')).toBe(0);
  });

  it('on: follows them, under the other site robots.txt and within maxDepth and maxPages', async () => {
    const id = await startCrawl(stack.url, account.auth, {
      url: `${hubUrl}/`,
      maxDepth: 1,
      allowExternalLinks: true,
    });
    const done = await waitForCrawl(stack.url, id, account.auth);
    expect(done).toMatchObject({ status: 'done', stopReason: 'completed', failed: 0 });
    expect(urlsOf(done)).toEqual(
      [`${hubUrl}/`, `${hubUrl}/local`, `${other.url}/article/0`, `${other.url}/tree`].sort(),
    );
    // robots.txt of the other site disallows /private/; maxDepth 1 ends at its pages' links.
    expect(otherHits('/private/secret')).toBe(0);
    expect(otherHits('/tree/1')).toBe(0);
    expect(done.creditsUsed).toBe(4);

    const capped = await startCrawl(stack.url, account.auth, {
      url: `${hubUrl}/`,
      maxDepth: 1,
      maxPages: 2,
      allowExternalLinks: true,
    });
    const cappedDone = await waitForCrawl(stack.url, capped, account.auth);
    expect(cappedDone).toMatchObject({ status: 'done', stopReason: 'max_pages', completed: 2 });
  });

  it('is accepted on the Firecrawl routes (v1 and v2) and follows the links there too', async () => {
    const expected = [`${hubUrl}/`, `${hubUrl}/local`, `${other.url}/article/0`, `${other.url}/tree`].sort();
    expect(
      await firecrawlCrawl('v2', {
        url: `${hubUrl}/`,
        maxDiscoveryDepth: 1,
        allowExternalLinks: true,
        sitemap: 'skip',
      }),
    ).toEqual(expected);
    expect(
      await firecrawlCrawl('v1', {
        url: `${hubUrl}/`,
        maxDepth: 1,
        allowExternalLinks: true,
        ignoreSitemap: true,
      }),
    ).toEqual(expected);
    // Off on Firecrawl too.
    expect(await firecrawlCrawl('v2', { url: `${hubUrl}/`, maxDiscoveryDepth: 1 })).toEqual(
      [`${hubUrl}/`, `${hubUrl}/local`].sort(),
    );
  });
});

describe('sitemap: "only"', () => {
  it('crawls the start page and the sitemap URLs, whatever their depth, and follows no link', async () => {
    const before = otherHits('/tree/1');
    const id = await startCrawl(stack.url, account.auth, { url: `${other.url}/tree`, sitemap: 'only' });
    const done = await waitForCrawl(stack.url, id, account.auth);
    expect(done).toMatchObject({ status: 'done', stopReason: 'completed', failed: 0 });
    // /tree/3/3/3 is deeper than the default maxDepth (2): the sitemap is the crawl here.
    expect(urlsOf(done)).toEqual(
      [
        `${other.url}/tree`,
        `${other.url}/tree/3/3/3`,
        `${other.url}/tree/2`,
        `${other.url}/article/1`,
      ].sort(),
    );
    // The start page links to /tree/1: not followed.
    expect(otherHits('/tree/1')).toBe(before);

    // "include" (the default) follows the links as well.
    const mixed = await startCrawl(stack.url, account.auth, { url: `${other.url}/tree`, maxDepth: 1 });
    const mixedDone = await waitForCrawl(stack.url, mixed, account.auth);
    expect(urlsOf(mixedDone)).toEqual(
      expect.arrayContaining([`${other.url}/tree/1`, `${other.url}/article/1`]),
    );
  });

  it('on the Firecrawl v2 route', async () => {
    expect(await firecrawlCrawl('v2', { url: `${other.url}/`, sitemap: 'only', limit: 10 })).toEqual(
      [`${other.url}/`, `${other.url}/tree/3/3/3`, `${other.url}/tree/2`, `${other.url}/article/1`].sort(),
    );
  });
});
