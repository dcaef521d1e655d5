/**
 * runMap's time rules without the queue: a CPU phase longer than the budget answers what it
 * checked (with a warning) before the answer is due, and the caller's signal stops the map.
 * A local site whose robots.txt makes every URL check 1,000 wildcard rules and whose sitemap
 * lists 100k URLs that all match the rules' keys.
 */
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { createSafeDispatcher, type Dispatcher } from '@wcs/net';
import type { PayloadOf } from '@wcs/queues';
import { createRendererFromEnv, type Renderer } from '@wcs/renderer';
import { type ListeningServer, listenLocal } from '@wcs/testing';
import { type MapDeps, runMap } from './map.processor';
import { loadMapWorkerEnv } from './map-worker.env';

const URLS = 100_000;

describe('runMap time budget', () => {
  let site: ListeningServer;
  let renderer: Renderer;
  let dispatcher: Dispatcher;
  let deps: MapDeps;

  beforeAll(async () => {
    let base = '';
    let sitemap: Buffer = Buffer.alloc(0);
    let robots = '';
    site = await listenLocal(
      createServer((req, res) => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        if (path === '/robots.txt') return void res.end(robots);
        if (path === '/sitemap.xml.gz') {
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          return void res.end(sitemap);
        }
        if (path === '/') {
          res.writeHead(200, { 'content-type': 'text/html' });
          return void res.end('<html><body><a href="/about">About</a></body></html>');
        }
        res.writeHead(404);
        res.end();
      }),
    );
    base = site.url;
    const rules = Array.from({ length: 1_000 }, (_, i) => `Disallow: /*/never-${i}/*.php$`);
    robots = `User-agent: *\nDisallow: /p/13$\n${rules.join('\n')}\nSitemap: ${base}/sitemap.xml.gz\n`;
    // Every URL carries the rules' literal keys ("/never-1" … "/never-9"), so each one verifies
    // ~1,000 wildcard rules: ~100 µs a URL, seconds for 100k on any machine — past the budget.
    const keys = Array.from({ length: 9 }, (_, k) => `never-${k + 1}`).join('/');
    const locs = [
      `<url><loc>${base}/p/13</loc></url>`,
      ...Array.from({ length: URLS }, (_, i) => `<url><loc>${base}/p/${i}/${keys}/x</loc></url>`),
    ];
    sitemap = gzipSync(`<urlset>${locs.join('')}</urlset>`);
    const env = loadMapWorkerEnv({
      REDIS_URL: 'redis://127.0.0.1:1',
      ALLOW_PRIVATE_TARGETS: 'true',
      BROWSER_ENABLED: 'false',
    });
    renderer = createRendererFromEnv(env);
    dispatcher = createSafeDispatcher({ allowPrivateTargets: true, connectTimeoutMs: 2_000 });
    const quiet = () => undefined;
    deps = {
      renderer,
      dispatcher,
      logger: { info: quiet, debug: quiet, warn: quiet },
      settings: {
        userAgent: env.USER_AGENT,
        shallowPages: 0,
        concurrency: 1,
        pageTimeoutMs: 5_000,
        sitemapMaxFiles: 5,
        robotsMaxOrigins: 5,
      },
    };
  });
  afterAll(async () => {
    await site?.close();
    await renderer?.close();
    await dispatcher?.close();
  });

  const payload = (extra: Partial<PayloadOf<'map'>>): PayloadOf<'map'> =>
    ({
      requestId: 'r1',
      accountId: 'a1',
      url: site.url,
      maxUrls: 100_000,
      timeoutMs: 30_000,
      includeSubdomains: false,
      ignoreSitemap: false,
      ...extra,
    }) as PayloadOf<'map'>;

  it('answers what it checked, with a warning, when filtering and ranking outlast the budget', async () => {
    // 3 s for the sources, 0.6 s for filtering. A quiet machine reads the whole sitemap in ~1 s; a
    // loaded one may be cut reading it (that warning is then added too). Either way filtering
    // what was read costs about as much CPU per URL as reading it did, far past 0.6 s, so the
    // CPU phase is what the budget cuts — whatever the machine's load.
    const timeoutMs = 4_000;
    const res = await runMap(deps, payload({ timeoutMs, search: 'p' }));
    // The budget cut the work short and the answer says so (answered, not failed: the gateway
    // waits for it until the budget + 5 s).
    expect(res.warning).toMatch(
      /time budget ran out while filtering and ranking the URLs found \(\d+ checked\)/,
    );
    expect(res.links.length).toBeGreaterThan(0);
    expect(res.links.length).toBeLessThan(URLS);
    expect(res.links).not.toContain(`${site.url}/p/13`);
  });

  it('stops as soon as the caller signal aborts, with a timeout error', async () => {
    const caller = new AbortController();
    const done = runMap(deps, payload({ search: 'p' }), { signal: caller.signal });
    setTimeout(() => caller.abort(new Error('caller gone')), 300);
    await expect(done).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringMatching(/cancelled/), // the caller's signal, not the 30 s budget
    });
  });

  it('says so when the budget stopped the sitemaps, and answers with the other sources', async () => {
    // A sitemap that never finishes: only the budget ends its reading.
    const stalled = await listenLocal(
      createServer((req, res) => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        if (path === '/robots.txt') return void res.end(`Sitemap: ${stalled.url}/sitemap.xml\n`);
        if (path === '/sitemap.xml') {
          res.writeHead(200, { 'content-type': 'application/xml' });
          return void res.write('<urlset><url><loc>');
        }
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body><a href="/about">About</a></body></html>');
      }),
    );
    try {
      const res = await runMap(deps, payload({ url: stalled.url, timeoutMs: 1_500 }));
      expect(res.warning).toMatch(/time budget ran out while reading the sitemaps \(0 URLs read\)/);
      expect(res.links).toContain(`${stalled.url}/about`);
    } finally {
      await stalled.close();
    }
  });
});
