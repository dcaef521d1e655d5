/** Sitemaps a hostile site serves: cycles of indexes, a million URLs, a file that never ends. */
import type { ServerResponse } from 'node:http';
import { createSafeDispatcher } from '@wcs/net';
import type { Dispatcher } from 'undici';
import { collectSitemapUrls, SITEMAP_MAX_URLS } from './sitemaps';
import { type LocalServer, send, startLocalServer } from './test-support/local-server';

const XML = 'application/xml';
const index = (locs: string[]) =>
  `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs
    .map((l) => `<sitemap><loc>${l}</loc></sitemap>`)
    .join('')}</sitemapindex>`;
const urlset = (locs: string[]) =>
  `<urlset>${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`;

/** `count` URLs (Infinity: endless), 1,000 per write, respecting backpressure, `pauseMs` between writes. */
function streamedSitemap(count: number, stats: { sent: number; finished: boolean }, pauseMs = 0) {
  return (_req: unknown, res: ServerResponse, base: string) => {
    res.writeHead(200, { 'content-type': XML });
    res.write('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    let i = 0;
    const pump = () => {
      while (i < count && !res.destroyed) {
        let chunk = '';
        for (let k = 0; k < 1_000 && i < count; k++, i++) chunk += `<url><loc>${base}/p/${i}</loc></url>\n`;
        stats.sent = i;
        const more = res.write(chunk);
        if (pauseMs > 0) return void setTimeout(pump, pauseMs);
        if (!more) return void res.once('drain', pump);
      }
      if (!res.destroyed && i >= count) {
        stats.finished = true;
        res.end('</urlset>');
      }
    };
    pump();
  };
}

describe('collectSitemapUrls against a hostile site', () => {
  let server: LocalServer;
  let dispatcher: Dispatcher;
  const million = { sent: 0, finished: false };
  const endless = { sent: 0, finished: false };
  const opts = (extra: Partial<Parameters<typeof collectSitemapUrls>[1]> = {}) => ({
    dispatcher,
    userAgent: 'test-agent',
    timeoutMs: 20_000,
    maxUrls: 1_000,
    ...extra,
  });

  beforeAll(async () => {
    dispatcher = createSafeDispatcher({ allowPrivateTargets: true, connectTimeoutMs: 2_000 });
    server = await startLocalServer({
      // lists itself (three spellings of one key) and a second index that lists the first back
      '/self.xml': (q, r, b) =>
        send(index([`${b}/self.xml`, `${b}/self.xml#again`, `${b}/cycle.xml`, `${b}/leaf.xml`]), XML)(q, r),
      '/cycle.xml': (q, r, b) => send(index([`${b}/self.xml`, `${b}/cycle.xml`]), XML)(q, r),
      '/leaf.xml': (q, r, b) => send(urlset([`${b}/a`, `${b}/b`]), XML)(q, r),
      '/million.xml': streamedSitemap(1_000_000, million),
      '/endless.xml': streamedSitemap(Number.POSITIVE_INFINITY, endless, 20),
      '/nested.xml': (q, r, b) =>
        send(`<urlset><url><loc>${b}/first</loc></url>${'<url>'.repeat(100_000)}`, XML)(q, r),
    });
  });
  afterAll(async () => {
    await server.close();
    await dispatcher.close();
  });

  it('reads an index that includes itself, and a cycle of indexes, once each', async () => {
    const res = await collectSitemapUrls([`${server.url}/self.xml`, `${server.url}/cycle.xml`], opts());
    expect(res.urls.map((u) => u.url)).toEqual([`${server.url}/a`, `${server.url}/b`]);
    expect(res.errors).toEqual([]);
    const hits = (p: string) => server.log.filter((l) => l === p).length;
    expect([hits('/self.xml'), hits('/cycle.xml'), hits('/leaf.xml')]).toEqual([1, 1, 1]);
    expect(res.filesFetched).toBe(3);
  });

  it(`cuts a 1-million-URL sitemap at ${SITEMAP_MAX_URLS} URLs, streamed, within memory bounds`, async () => {
    // How fast sitemaps are read: `pnpm bench:map` (the in-process floor).
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const res = await collectSitemapUrls([`${server.url}/million.xml`], opts({ maxUrls: 1_000_000 }));
    expect(res.urls).toHaveLength(SITEMAP_MAX_URLS);
    expect(res.urls.at(-1)?.url).toBe(`${server.url}/p/${SITEMAP_MAX_URLS - 1}`);
    expect(million.finished).toBe(false); // the connection was dropped at the cap
    expect(million.sent).toBeLessThan(400_000);
    // 100k URLs with their keys are ~20 MB of strings; a DOM of the file would be far more
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(150 * 1024 * 1024);
  });

  it('stops a sitemap that never ends when the signal aborts, keeping what it read', async () => {
    const signal = AbortSignal.timeout(700);
    const res = await collectSitemapUrls([`${server.url}/endless.xml`], opts({ maxUrls: 100_000, signal }));
    // Ended by its signal (the error says so), not by the URL cap or the end of the file.
    expect(signal.aborted).toBe(true);
    expect(res.urls.length).toBeGreaterThan(0);
    expect(res.urls.length).toBeLessThan(100_000);
    expect(res.errors).toEqual(['sitemaps: stopped (time budget or caller abort)']);
    expect(endless.finished).toBe(false);
  });

  it('refuses XML nested deeper than 32 levels at once (100k nested elements)', async () => {
    // Refused by the depth limit it names (htmlparser2's Parser alone would take seconds).
    const res = await collectSitemapUrls([`${server.url}/nested.xml`], opts());
    expect(res.urls.map((u) => u.url)).toEqual([`${server.url}/first`]);
    expect(res.errors).toEqual([
      expect.stringMatching(/nested\.xml: not a sitemap \(elements nested deeper than 32 levels\)/),
    ]);
  });
});
