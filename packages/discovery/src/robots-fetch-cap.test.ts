/** A 10 MB robots.txt is read up to MAX_ROBOTS_BYTES and the connection dropped, not buffered. */
import type { ServerResponse } from 'node:http';
import { createSafeDispatcher } from '@wcs/net';
import type { Dispatcher } from 'undici';
import { MAX_ROBOTS_BYTES } from './robots';
import { fetchRobots } from './robots-fetch';
import { type LocalServer, startLocalServer } from './test-support/local-server';

const TOTAL = 10 * 1024 * 1024;

describe('fetchRobots on a 10 MB robots.txt', () => {
  let server: LocalServer;
  let dispatcher: Dispatcher;
  const stats = { sent: 0, finished: false };

  beforeAll(async () => {
    dispatcher = createSafeDispatcher({ allowPrivateTargets: true, connectTimeoutMs: 2_000 });
    server = await startLocalServer({
      '/robots.txt': (_q, res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('User-agent: *\nDisallow: /secret\n');
        const line = 'Disallow: /*/generated-rule-that-never-ends-padding-padding\n';
        const chunk = line.repeat(Math.ceil(65_536 / line.length));
        const pump = () => {
          while (stats.sent < TOTAL && !res.destroyed) {
            stats.sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!res.destroyed) {
            stats.finished = true;
            res.end('Disallow: /after-ten-megabytes\n');
          }
        };
        pump();
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await dispatcher.close();
  });

  it('keeps the first 500 KiB, stops reading and matches within the cap', async () => {
    const before = process.memoryUsage().heapUsed;
    const res = await fetchRobots(server.url, {
      dispatcher,
      userAgent: 'WebContentService/0.1',
      timeoutMs: 30_000, // a safety net: the byte cap, not the budget, must end the read
    });
    expect(res.statusCode).toBe(200);
    expect(res.error).toBeUndefined();
    expect(res.text?.length).toBeLessThanOrEqual(MAX_ROBOTS_BYTES);
    expect(res.text?.length).toBeGreaterThan(MAX_ROBOTS_BYTES - 100);
    expect(res.robots.isAllowed(`${server.url}/secret/x`)).toBe(false);
    expect(res.robots.isAllowed(`${server.url}/after-ten-megabytes`)).toBe(true); // never read
    expect(res.robots.isAllowed(`${server.url}/public`)).toBe(true);
    expect(stats.finished).toBe(false); // the server never got to the end: we hung up
    expect(stats.sent).toBeLessThan(TOTAL);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(50 * 1024 * 1024);
  });

  it('a robots.txt redirecting to itself ends after 5 redirects: allow all, reported', async () => {
    const loop = await startLocalServer({
      '/robots.txt': (_q, res) => {
        res.writeHead(302, { location: '/robots.txt' });
        res.end();
      },
    });
    try {
      const res = await fetchRobots(loop.url, {
        dispatcher,
        userAgent: 'WebContentService/0.1',
        timeoutMs: 5_000,
      });
      expect(res.robots.isAllowed(`${loop.url}/x`)).toBe(true);
      expect(res.error).toMatch(/redirect/i);
      expect(loop.log.length).toBe(6); // the request and 5 redirects
    } finally {
      await loop.close();
    }
  });
});
