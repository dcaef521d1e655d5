/**
 * bench:map's hostile figure (what tests/src/map-hostile.e2e.test.ts prints but no longer bounds): a
 * map of the hostile site (a ~500 KB robots.txt, 100k nested divs and 100k links, a sitemap index
 * listing itself, a one-million-URL sitemap) beside a small map on the same map-worker process —
 * the small map's time alone and beside it, and the worker's worst event-loop delay meanwhile.
 */
import type { ChildProcess } from 'node:child_process';
import { startMapSite } from '@wcs/testing';
import { request } from 'undici';
import { startHostileMapSite } from '../tests/src/hostile-map-site';

/** The map worker's event-loop delay since the last reset (bench/map-worker.process.ts). */
interface LoopDelay {
  maxMs: number;
  p99Ms: number;
}

function askLoopDelay(worker: ChildProcess, reset: boolean): Promise<LoopDelay> {
  return new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      if (typeof m === 'object' && m !== null && 'maxMs' in m) {
        worker.off('message', onMessage);
        resolve(m as LoopDelay);
      }
    };
    worker.on('message', onMessage);
    worker.send({ loopDelay: true, reset });
  });
}

async function timedMap(base: string, headers: Record<string, string>, body: object) {
  const t0 = performance.now();
  const r = await request(`${base}/v1/map`, { method: 'POST', headers, body: JSON.stringify(body) });
  const json = (await r.body.json()) as { links?: string[]; warning?: string };
  return {
    status: r.statusCode,
    links: json.links?.length ?? 0,
    warning: json.warning,
    ms: performance.now() - t0,
  };
}

export async function hostileNeighbourLines(
  base: string,
  headers: Record<string, string>,
  worker: ChildProcess,
): Promise<string[]> {
  const hostile = await startHostileMapSite();
  const small = await startMapSite({ sitemapUrls: 30, sitemapFiles: 3 });
  try {
    await timedMap(base, headers, { url: small.url }); // warm
    const alone = await timedMap(base, headers, { url: small.url });
    await askLoopDelay(worker, true);
    const big = timedMap(base, headers, { url: hostile.url, max_urls: 100_000, timeout: 12_000 });
    // Once the hostile map is reading its sitemaps, the small one starts on the same process.
    const deadline = Date.now() + 30_000;
    while (hostile.hits('/million.xml') === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    const beside = await timedMap(base, headers, { url: small.url });
    const b = await big;
    const delay = await askLoopDelay(worker, true);
    return [
      `hostile map: ${b.status} in ${b.ms.toFixed(0)} ms (budget 12000), ${b.links} links, warning "${b.warning ?? ''}", ${hostile.sitemapUrlsSent()} sitemap URLs sent`,
      `small map on the same worker: alone ${alone.ms.toFixed(0)} ms, beside the hostile map ${beside.ms.toFixed(0)} ms (${beside.status})`,
      `map worker event loop while it ran: worst delay ${delay.maxMs.toFixed(0)} ms, p99 ${delay.p99Ms.toFixed(0)} ms`,
    ];
  } finally {
    await hostile.close();
    await small.close();
  }
}
