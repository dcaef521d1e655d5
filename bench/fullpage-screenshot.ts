/**
 * bench:scrape's full-page screenshot figure: POST /v1/scrape with `screenshot@fullPage` of a page
 * 100,000 CSS px tall (cut at the 16,384-px cap; on mobile at 1280 × 16,384 device pixels), desktop
 * and mobile, one at a time. The renderer tests only check the sizes; this is how long it takes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { median } from './bench-utils';

export interface FullPageFigures {
  desktop: number[];
  mobile: number[];
  failures: number;
}

export async function fullPageScreenshots(
  base: string,
  headers: Record<string, string>,
  runs: number,
): Promise<FullPageFigures> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!DOCTYPE html><html><head><title>tall</title></head><body>' +
        '<div style="height:100000px;background:linear-gradient(#fff,#39f)">A tall page.</div></body></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tall`;
  const figures: FullPageFigures = { desktop: [], mobile: [], failures: 0 };
  try {
    for (let i = 0; i < runs; i++) {
      for (const mobile of [false, true]) {
        const t0 = performance.now();
        const r = await request(`${base}/v1/scrape`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            url: `${url}?run=${i}`,
            formats: ['markdown', 'screenshot@fullPage'],
            timeout: 60_000,
            ...(mobile ? { mobile: true } : {}),
          }),
        });
        await r.body.text();
        const ms = performance.now() - t0;
        if (r.statusCode !== 200) figures.failures++;
        else (mobile ? figures.mobile : figures.desktop).push(ms);
      }
    }
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return figures;
}

export function fullPageLine(f: FullPageFigures): string {
  const med = (xs: number[]) => (xs.length ? `${median(xs).toFixed(0)} ms` : 'n/a');
  return (
    `full-page screenshot of a 100,000-px page (capped): POST /v1/scrape median desktop ${med(f.desktop)}, ` +
    `mobile ${med(f.mobile)} (${f.desktop.length + f.mobile.length} scrapes, ${f.failures} failed)`
  );
}
