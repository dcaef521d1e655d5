/**
 * What the fetch ladder (packages/scraper fetch-ladder.ts) adds, in one process, no stores:
 *   - on pages that need no escalation: the same static pages through `renderer.render` alone and
 *     through `fetchPage` (the ladder around the same render), interleaved rounds, median ms per
 *     page of each and the difference; plus `detectBlock` alone per page (the ladder's only work
 *     on such a page),
 *   - on the escalation path, for scale: a JS challenge cleared by the browser (fetch, browser,
 *     reload) and a `429 Retry-After: 1` waited out (median of `--escalations`).
 *
 *   pnpm bench:ladder [--pages 200] [--rounds 5] [--escalations 3]
 */
import { parseArgs } from 'node:util';
import { detectBlock } from '@wcs/content';
import { createRenderer } from '@wcs/renderer';
import { fetchPage } from '@wcs/scraper';
import { startFixtureSite, startWallSite } from '@wcs/testing';
import { benchArgv, median } from './bench-utils';

const { values } = parseArgs({
  args: benchArgv(),
  options: {
    pages: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '5' },
    escalations: { type: 'string', default: '3' },
  },
});
const PAGES = Number(values.pages);
const ROUNDS = Math.max(1, Number(values.rounds));
const ESCALATIONS = Number(values.escalations);
const TIMEOUT_MS = 30_000;

async function main(): Promise<void> {
  const site = await startFixtureSite({ pages: PAGES });
  const walls = await startWallSite();
  const renderer = createRenderer({
    allowPrivateTargets: true,
    fetchTimeoutMs: TIMEOUT_MS,
    connectTimeoutMs: 5_000,
    maxBodyBytes: 10 * 1024 * 1024,
    maxRedirects: 10,
    userAgent: 'wcs-ladder-bench/1.0',
    browser: { enabled: true, executablePath: '/usr/bin/chromium', maxPages: 2 },
  });
  try {
    const urls = Array.from({ length: PAGES }, (_, i) => `${site.url}/article/${i}`);
    const plain: number[] = [];
    const ladder: number[] = [];
    const bodies: string[] = [];
    const time = async (fn: () => Promise<unknown>): Promise<number> => {
      const t0 = performance.now();
      await fn();
      return performance.now() - t0;
    };
    // Warm-up: connections, JIT.
    for (const u of urls.slice(0, 20)) await fetchPage(renderer, { url: `${u}?warm`, timeoutMs: TIMEOUT_MS });
    for (let r = 0; r < ROUNDS; r++) {
      for (const [i, u] of urls.entries()) {
        const a = `${u}?r=${r}&via=render`;
        const b = `${u}?r=${r}&via=ladder`;
        // Alternate which goes first, so drift on the shared machine hits both alike.
        const render = () =>
          renderer.render({ url: a, engine: 'auto', timeoutMs: TIMEOUT_MS }).then((p) => {
            if (r === 0) bodies.push(p.body);
          });
        const viaLadder = () => fetchPage(renderer, { url: b, timeoutMs: TIMEOUT_MS });
        if (i % 2 === 0) {
          plain.push(await time(render));
          ladder.push(await time(viaLadder));
        } else {
          ladder.push(await time(viaLadder));
          plain.push(await time(render));
        }
      }
    }
    const t0 = performance.now();
    const reps = 20;
    for (let k = 0; k < reps; k++)
      for (const body of bodies)
        detectBlock({ statusCode: 200, headers: { 'content-type': 'text/html' }, body });
    const detectUs = ((performance.now() - t0) * 1000) / (reps * bodies.length);

    const m = (xs: number[]) => median(xs).toFixed(3);
    console.log(`pages needing no escalation: ${PAGES} pages × ${ROUNDS} rounds, interleaved`);
    console.log(`  renderer.render alone   median ${m(plain)} ms/page`);
    console.log(`  fetchPage (ladder)      median ${m(ladder)} ms/page`);
    console.log(
      `  ladder's added time     ${(median(ladder) - median(plain)).toFixed(3)} ms/page (median difference)`,
    );
    console.log(`  detectBlock alone       ${detectUs.toFixed(1)} µs/page`);

    if (ESCALATIONS > 0) {
      const challenge: number[] = [];
      const retry: number[] = [];
      for (let k = 0; k < ESCALATIONS; k++) {
        challenge.push(
          await time(() =>
            fetchPage(renderer, { url: `${walls.url}/challenge?k=${k}`, timeoutMs: TIMEOUT_MS }),
          ),
        );
        retry.push(
          await time(() =>
            fetchPage(renderer, { url: `${walls.url}/slow-limit?k=${k}`, timeoutMs: TIMEOUT_MS }),
          ),
        );
      }
      console.log(`escalation path (median of ${ESCALATIONS}):`);
      console.log(`  JS challenge: fetch, browser, reload   ${m(challenge)} ms`);
      console.log(`  429 Retry-After: 1, waited out         ${m(retry)} ms`);
    }
  } finally {
    await renderer.close();
    await walls.close();
    await site.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
