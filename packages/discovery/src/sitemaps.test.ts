import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { createSafeDispatcher } from '@wcs/net';
import type { Dispatcher } from 'undici';
import { collectSitemapUrls } from './sitemaps';
import { type LocalServer, send, startLocalServer } from './test-support/local-server';

const XML = 'application/xml; charset=utf-8';
const urlset = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n${locs
    .map((l) => `<url><loc>${l}</loc><image:image><image:loc>${l}/img.png</image:loc></image:image></url>`)
    .join('\n')}\n</urlset>\n`;
const index = (locs: string[]) =>
  `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs
    .map((l) => `<sitemap><loc>${l}</loc><lastmod>2024-01-01</lastmod></sitemap>`)
    .join('')}</sitemapindex>`;

/** Streams `count` <url> entries, respecting backpressure; records how much it sent. */
function bigSitemap(count: number, stats: { sent: number; finished: boolean }) {
  return (_req: unknown, res: ServerResponse, base: string) => {
    res.writeHead(200, { 'content-type': XML });
    res.write('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    let i = 0;
    const pump = () => {
      while (i < count && !res.destroyed) {
        let chunk = '';
        for (let k = 0; k < 500 && i < count; k++, i++) chunk += `<url><loc>${base}/p/${i}</loc></url>\n`;
        stats.sent = i;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) {
        stats.finished = true;
        res.end('</urlset>');
      }
    };
    pump();
  };
}

function gzipBombSitemap(base: string): Buffer {
  const head = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${base}/bomb/1</loc></url>`;
  return gzipSync(
    Buffer.concat([Buffer.from(head), Buffer.alloc(32 * 1024 * 1024, 0x20), Buffer.from('</urlset>')]),
  );
}

describe('collectSitemapUrls', () => {
  let server: LocalServer;
  let dispatcher: Dispatcher;
  const big = { sent: 0, finished: false };
  const opts = (extra: Partial<Parameters<typeof collectSitemapUrls>[1]> = {}) => ({
    dispatcher,
    userAgent: 'test-agent',
    timeoutMs: 10_000,
    maxUrls: 1_000,
    ...extra,
  });

  beforeAll(async () => {
    dispatcher = createSafeDispatcher({ allowPrivateTargets: true, connectTimeoutMs: 2_000 });
    const routes: Parameters<typeof startLocalServer>[0] = {
      '/sitemap_index.xml': (q, r, b) =>
        send(
          index([
            `${b}/sm/a.xml.gz`,
            `${b}/sm/b.xml`,
            '/sm/c.txt',
            `${b}/sm/feed.rss`,
            `${b}/sm/atom.xml`,
            `${b}/sm/broken.xml`,
            `${b}/sm/missing.xml`,
            `${b}/sitemap_index.xml`,
          ]),
          XML,
        )(q, r),
      // gzip file served as a download: only the magic bytes say it is gzip
      '/sm/a.xml.gz': (q, r, b) =>
        send(gzipSync(urlset([`${b}/a/1`, `${b}/a/2/`, `${b}/a/1#dup`])), 'application/octet-stream')(q, r),
      // gzip as a transfer encoding
      '/sm/b.xml': (q, r, b) =>
        send(gzipSync(urlset([`${b}/b/1?y=2&amp;x=1`, `<![CDATA[${b}/b/2]]>`, `${b}/a/2`])), XML, 200, {
          'content-encoding': 'gzip',
        })(q, r),
      '/sm/c.txt': (q, r, b) => send(`${b}/c/1\n\n  ${b}/c/2  \r\nnot a url\nftp://x/y\n`)(q, r),
      '/sm/feed.rss': (q, r, b) =>
        send(
          `<?xml version="1.0"?><rss version="2.0"><channel><link>${b}/</link><item><title>x</title><link>${b}/rss/1</link></item></channel></rss>`,
          'application/rss+xml',
        )(q, r),
      '/sm/atom.xml': (q, r, b) =>
        send(
          `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link rel="edit" href="${b}/edit"/><link href="${b}/atom/1"/></entry></feed>`,
          'application/atom+xml',
        )(q, r),
      // gzip bombs: one URL, then 32 MiB of whitespace, in ~32 KB (as a download, and as an encoding)
      '/bomb.xml.gz': (q, r, b) => send(gzipBombSitemap(b), 'application/octet-stream')(q, r),
      '/bomb.xml': (q, r, b) => send(gzipBombSitemap(b), XML, 200, { 'content-encoding': 'gzip' })(q, r),
      '/sm/broken.xml': send('<!DOCTYPE html><html><body>Soft 404</body></html>', 'text/html'),
      '/big.xml': bigSitemap(100_000, big),
      '/nested/0.xml': (q, r, b) => send(index([`${b}/nested/1.xml`]), XML)(q, r),
      '/nested/1.xml': (q, r, b) => send(index([`${b}/nested/2.xml`]), XML)(q, r),
      '/nested/2.xml': (q, r, b) => send(index([`${b}/nested/3.xml`]), XML)(q, r),
      '/nested/3.xml': (q, r, b) => send(index([`${b}/nested/leaf.xml`]), XML)(q, r),
      '/nested/leaf.xml': (q, r, b) => send(urlset([`${b}/leaf`]), XML)(q, r),
      '/dated.xml': (q, r, b) =>
        send(
          gzipSync(
            `<urlset><url><lastmod>2026-11-30</lastmod><loc>${b}/d/1</loc></url><url><loc>${b}/d/2</loc><lastmod>2026-11-30T09:00:00+01:00</lastmod></url><url><loc>${b}/d/3</loc><lastmod>soon</lastmod></url><url><loc>${b}/d/1#again</loc><lastmod>2020-01-01</lastmod></url></urlset>`,
          ),
          XML,
          200,
          { 'content-encoding': 'gzip' },
        )(q, r),
      '/many.xml': (q, r, b) =>
        send(index(Array.from({ length: 10 }, (_, i) => `${b}/many/${i}.xml`)), XML)(q, r),
    };
    for (let i = 0; i < 10; i++) {
      routes[`/many/${i}.xml`] = (q, r, b) => send(urlset([`${b}/many/page-${i}`]), XML)(q, r);
    }
    server = await startLocalServer(routes);
  });
  afterAll(async () => {
    await server.close();
    await dispatcher.close();
  });

  it("returns each urlset entry's valid lastmod (its latest instant); the first entry of a URL wins", async () => {
    const b = server.url;
    const res = await collectSitemapUrls([`${b}/dated.xml`], opts());
    expect(res.urls.map((u) => ({ url: u.url, lastmod: u.lastmod?.toISOString() }))).toEqual([
      { url: `${b}/d/1`, lastmod: '2026-11-30T23:59:59.999Z' },
      { url: `${b}/d/2`, lastmod: '2026-11-30T08:00:00.999Z' },
      { url: `${b}/d/3`, lastmod: undefined },
    ]);
    expect(res.urls[2]).not.toHaveProperty('lastmod');
  });

  it('follows an index into gzip, text and feed sitemaps; as written, de-duplicated by key, in order', async () => {
    const b = server.url;
    const res = await collectSitemapUrls([`${b}/sitemap_index.xml`], opts());
    expect(res.urls.map((u) => u.url)).toEqual([
      `${b}/a/1`,
      `${b}/a/2/`,
      `${b}/b/1?y=2&x=1`,
      `${b}/b/2`,
      `${b}/a/2`,
      `${b}/c/1`,
      `${b}/c/2`,
      `${b}/rss/1`,
      `${b}/atom/1`,
    ]);
    expect(res.errors.sort()).toEqual([
      expect.stringMatching(/broken\.xml: not a sitemap \(root element <html>\)/),
      expect.stringMatching(/missing\.xml: HTTP 404/),
    ]);
  });

  it('streams a 100k-URL sitemap completely, with bounded memory', async () => {
    const before = process.memoryUsage().heapUsed;
    const res = await collectSitemapUrls([`${server.url}/big.xml`], opts({ maxUrls: 100_000 }));
    expect(res.urls.length).toBe(100_000);
    expect(res.urls[99_999]?.url).toBe(`${server.url}/p/99999`);
    expect(res.errors).toEqual([]);
    // the result itself is ~10 MB of strings; a parser holding a DOM would be several times more
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(150 * 1024 * 1024);
  });

  it('stops reading as soon as maxUrls is reached', async () => {
    big.sent = 0;
    big.finished = false;
    const res = await collectSitemapUrls([`${server.url}/big.xml`], opts({ maxUrls: 100 }));
    expect(res.urls.length).toBe(100);
    expect(res.urls[0]).toEqual({ url: `${server.url}/p/0`, key: `${server.url}/p/0` });
    expect(big.finished).toBe(false);
  });

  it('caps the bytes of one file and keeps what it read', async () => {
    const res = await collectSitemapUrls(
      [`${server.url}/big.xml`],
      opts({ maxUrls: 100_000, maxBytes: 64 * 1024 }),
    );
    expect(res.urls.length).toBeGreaterThan(100);
    expect(res.urls.length).toBeLessThan(2_000);
    expect(res.errors).toEqual([expect.stringMatching(/larger than 65536 bytes/)]);
  });

  it('caps the decoded bytes of a gzipped sitemap: a gzip bomb stops at maxBytes', async () => {
    for (const path of ['/bomb.xml.gz', '/bomb.xml']) {
      const res = await collectSitemapUrls([`${server.url}${path}`], opts({ maxBytes: 1024 * 1024 }));
      expect(res.urls.map((u) => u.url)).toEqual([`${server.url}/bomb/1`]);
      expect(res.errors).toEqual([expect.stringMatching(/larger than 1048576 bytes/)]);
    }
  });

  it('limits index depth and the number of files', async () => {
    const deep = await collectSitemapUrls([`${server.url}/nested/0.xml`], opts());
    expect(deep.urls).toEqual([]);
    expect(deep.errors).toEqual([expect.stringMatching(/3\.xml: sitemap index nested deeper than 3 levels/)]);

    const many = await collectSitemapUrls([`${server.url}/many.xml`], opts({ maxFiles: 4 }));
    expect(many.urls.map((u) => u.url)).toEqual([0, 1, 2].map((i) => `${server.url}/many/page-${i}`));
    expect(many.filesFetched).toBe(4);
    expect(many.errors).toEqual(['skipped 7 sitemap file(s): more than 4 sitemap files']);
  });

  it('never throws: unreachable hosts, refused private targets, aborts', async () => {
    const strict = createSafeDispatcher({ allowPrivateTargets: false, connectTimeoutMs: 2_000 });
    try {
      const res = await collectSitemapUrls(
        [`${server.url}/sm/c.txt`, 'http://127.0.0.1:1/sitemap.xml', 'file:///etc/passwd'],
        opts({ dispatcher: strict }),
      );
      expect(res.urls).toEqual([]);
      expect(res.errors.sort()).toEqual([
        expect.stringMatching(/^file:\/\/\/etc\/passwd: not an http\(s\) URL/),
        expect.stringMatching(/^http:\/\/127\.0\.0\.1:1\/sitemap\.xml: .*private or reserved/),
        expect.stringMatching(/c\.txt: .*private or reserved/),
      ]);
    } finally {
      await strict.close();
    }
    const controller = new AbortController();
    controller.abort();
    const aborted = await collectSitemapUrls([`${server.url}/big.xml`], opts({ signal: controller.signal }));
    expect(aborted.urls).toEqual([]);
    expect(aborted.errors).toEqual([expect.stringMatching(/stopped/)]);
  });
});
