/**
 * The head sniffer on a real Chromium page: a body that has wholly arrived before streaming is
 * switched on (one write from loopback) still reaches the listener from what the page's session
 * buffered, at once. Without that buffer the listener heard nothing and the engine had to wait
 * for the load event (`response.body()`), after Chromium had laid the bytes out as text.
 */
import http from 'node:http';
import { type ListeningServer, listenLocal } from '@wcs/testing';
import { type Browser, chromium } from 'playwright-core';
import { ByteMeter } from './browser-byte-meter';

const NOISE = (() => {
  let x = 7;
  return Buffer.from(
    Array.from({ length: 4 * 1024 * 1024 }, () => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x >> 23;
    }),
  );
})();

let browser: Browser;
let site: ListeningServer;

beforeAll(async () => {
  site = await listenLocal(
    http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(NOISE.length) });
      res.end(NOISE);
    }),
  );
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function headOf(path: string): Promise<Buffer> {
  const page = await browser.newPage();
  try {
    const meter = await ByteMeter.attach(page);
    const heard = new Promise<Buffer>((resolve) => meter.head.arm((head) => resolve(Buffer.from(head))));
    // The load is not awaited: the head must come without it (a closed page ends the goto).
    void page.goto(`${site.url}${path}`).catch(() => undefined);
    return await Promise.race([
      heard,
      page.waitForEvent('load', { timeout: 60_000 }).then(() => Buffer.alloc(0)),
    ]);
  } finally {
    await page.close();
  }
}

// Noise only: Chromium lays it out slowly, so its load event cannot win the race by itself. (A
// plain page can load before the head arrives under load; there the head is harmless anyway.)
describe('head sniffer', () => {
  it('hands the first bytes of a binary body over before the load event, though it arrived in one write', async () => {
    const head = await headOf('/noise');
    expect(head.length).toBeGreaterThan(0);
    expect(head.equals(NOISE.subarray(0, head.length))).toBe(true);
  });
});
