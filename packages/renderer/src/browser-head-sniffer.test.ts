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
const PAGE = Buffer.from(`<!doctype html><html><body><p>${'Plain text. '.repeat(200_000)}</p></body></html>`);

let browser: Browser;
let site: ListeningServer;

beforeAll(async () => {
  site = await listenLocal(
    http.createServer((req, res) => {
      const body = req.url === '/noise' ? NOISE : PAGE;
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(body.length) });
      res.end(body);
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

describe('head sniffer', () => {
  it.each([
    ['/noise', NOISE],
    ['/page', PAGE],
  ])(
    'hands %s’s first bytes over before the load event, though they arrived in one write',
    async (path, body) => {
      const head = await headOf(path);
      expect(head.length).toBeGreaterThan(0);
      expect(head.equals(body.subarray(0, head.length))).toBe(true);
    },
  );
});
