/**
 * The Node client's page options against the real service with Chromium enabled:
 * formats and headers reach the page and shape `data` for scrape, batch and crawl; extract and
 * monitors accept the read-only subset; `screenshot()` fetches a PNG with the client's key and
 * refuses to send the key anywhere else.
 */
import http from 'node:http';
import { ServiceClient, ServiceError } from '@wcs/client-node';
import { listenLocal, type PageOptionsSite, startPageOptionsSite } from '@wcs/testing';
import { type ClientStack, startClientStack } from './client-stack';

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const ECHO_HEADER = 'x-client-probe';

describe('Node client page options', () => {
  let s: ClientStack;
  let site: PageOptionsSite;
  let client: ServiceClient;

  beforeAll(async () => {
    [s, site] = await Promise.all([startClientStack({ browser: true }), startPageOptionsSite()]);
    client = new ServiceClient({ apiKey: s.account.apiKey, baseUrl: s.baseUrl });
  }, 90_000);
  afterAll(async () => {
    await Promise.all([s?.close(), site?.close()]);
  });

  it('scrape: formats links + rawHtml hold exactly those fields; the header reached the page', async () => {
    const res = await client.scrape(`${site.url}/echo`, {
      formats: ['links', 'rawHtml'],
      headers: { [ECHO_HEADER]: 'node-scrape-1' },
    });
    expect(res.data.rawHtml).toContain(`header ${ECHO_HEADER} = node-scrape-1`);
    expect(Array.isArray(res.data.links)).toBe(true);
    expect(res.data.markdown).toBeUndefined();
    expect(res.data.html).toBeUndefined();
    expect(res.data.metadata.statusCode).toBe(200);

    const links = await client.scrape(`${site.url}/links`, { formats: ['links'] });
    expect(links.data.links).toEqual(
      expect.arrayContaining([`${site.url}/echo`, 'https://example.org/away']),
    );
    expect(links.data.rawHtml).toBeUndefined();
  }, 60_000);

  it('scrape: includeTags and excludeTags shape the markdown', async () => {
    const res = await client.scrape(`${site.url}/tagged`, {
      formats: ['markdown'],
      onlyMainContent: false,
      includeTags: ['article', 'aside'],
      excludeTags: ['aside'],
    });
    expect(res.data.markdown).toContain('Articleword');
    expect(res.data.markdown).not.toContain('Asideword');
    expect(res.data.markdown).not.toContain('Navword');
  }, 60_000);

  it('batchScrapeAndWait passes formats and headers to every item', async () => {
    const done = await client.batchScrapeAndWait([`${site.url}/echo?b=1`, `${site.url}/echo?b=2`], {
      formats: ['rawHtml'],
      headers: { [ECHO_HEADER]: 'node-batch' },
      pollIntervalMs: 200,
      timeoutMs: 60_000,
    });
    expect(done.results.map((r) => r.status)).toEqual(['done', 'done']);
    for (const r of done.results) {
      expect(r.data?.rawHtml).toContain(`header ${ECHO_HEADER} = node-batch`);
      expect(r.data?.markdown).toBeUndefined();
    }
  }, 90_000);

  it('crawlAndWait sends scrapeOptions (headers reach every page)', async () => {
    const before = site.requestsTo('/echo').length;
    const done = await client.crawlAndWait(`${site.url}/echo?c=1`, {
      maxDepth: 0,
      scrapeOptions: { headers: { [ECHO_HEADER]: 'node-crawl' }, formats: ['markdown', 'links'] },
      pollIntervalMs: 200,
      timeoutMs: 60_000,
    });
    expect(done.status).toBe('done');
    expect(done.pages).toHaveLength(1);
    expect(done.pages[0]!.markdown).toContain('node-crawl');
    const reached = site.requestsTo('/echo').slice(before);
    expect(reached.some((r) => r.headers[ECHO_HEADER] === 'node-crawl')).toBe(true);
  }, 90_000);

  it('extract and createMonitor take the read-only subset (headers, waitFor, mobile…)', async () => {
    const before = site.requestsTo('/echo').length;
    const extracted = await client.extract(`${site.url}/echo?e=1`, {
      schema: { title: 'string' },
      headers: { [ECHO_HEADER]: 'node-extract' },
      mobile: false,
      location: { country: 'DE' },
    });
    expect(extracted.success).toBe(true);
    const reached = site.requestsTo('/echo').slice(before);
    const probe = reached.find((r) => r.headers[ECHO_HEADER] === 'node-extract');
    expect(probe?.headers['accept-language']).toMatch(/^de/i);

    const monitor = await client.createMonitor(`${site.url}/echo?m=1`, {
      interval: 'daily',
      headers: { [ECHO_HEADER]: 'node-monitor' },
      includeTags: ['article'],
      waitFor: 100,
    });
    expect(monitor.success).toBe(true);
    await client.deleteMonitor(monitor.data.id);
  }, 90_000);

  it('a wrong page option is a 400 naming the field', async () => {
    const err = await client.scrape(`${site.url}/echo`, { headers: { 'bad header': 'x' } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).status).toBe(400);
    expect((err as ServiceError).message).toContain('headers');
  }, 30_000);

  it('screenshot() fetches the PNG of data.screenshot (a capability URL: the key is not needed)', async () => {
    const res = await client.scrape(`${site.url}/tagged`, { formats: ['screenshot'] });
    const url = res.data.screenshot;
    expect(url).toMatch(/\/v1\/screenshots\/[A-Za-z0-9_-]{74}\.png$/);
    const png = await client.screenshot(url!);
    expect(png).toBeInstanceOf(Uint8Array);
    expect([...png.subarray(0, 8)]).toEqual(PNG_MAGIC);
    expect(png.length).toBeGreaterThan(1000);

    // The URL is the credential: a client with another (even unknown) key gets the same PNG.
    const other = new ServiceClient({
      apiKey: 'wcs_not_a_key_0123456789',
      baseUrl: s.baseUrl,
      maxRetries: 0,
    });
    expect(Buffer.from(await other.screenshot(url!)).equals(Buffer.from(png))).toBe(true);
  }, 90_000);

  it('screenshot() refuses a URL outside the base URL and sends nothing there', async () => {
    const seen: Array<string | undefined> = [];
    const elsewhere = await listenLocal(
      http.createServer((req, res) => {
        seen.push(req.headers.authorization);
        res.end('no');
      }),
    );
    try {
      const foreign = `${elsewhere.url}/v1/screenshots/00000000-0000-4000-8000-000000000000.png`;
      const err = await client.screenshot(foreign).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ServiceError);
      expect((err as ServiceError).code).toBe('INVALID_SCREENSHOT_URL');
      expect((err as ServiceError).message).not.toContain(s.account.apiKey);
      expect(seen).toEqual([]);

      // Same host, other port: another origin too.
      const base = new URL(s.baseUrl);
      const otherPort = `${base.protocol}//${base.hostname}:${Number(elsewhere.url.split(':').pop())}/v1/x.png`;
      await expect(client.screenshot(otherPort)).rejects.toMatchObject({ code: 'INVALID_SCREENSHOT_URL' });
      expect(seen).toEqual([]);

      // An unknown id under the right origin is the service's 404.
      const missing = await client
        .screenshot(`${s.baseUrl}/v1/screenshots/00000000-0000-4000-8000-000000000000.png`)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect((missing as ServiceError).status).toBe(404);
    } finally {
      await elsewhere.close();
    }
  }, 30_000);
});
