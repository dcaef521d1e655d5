/**
 * Recrawl benchmark (conditional revalidation): a local site of `--pages` pages (2,000 by default)
 * with `ETag` + `Last-Modified`, honouring If-None-Match / If-Modified-Since with 304s, a tree of
 * links (5 per page). `--site real` (the default) serves the 181 real article pages of
 * `shared/bench/article-extraction` (page i is article i mod 181, ~170 KB; a change adds a revision
 * note to its longest paragraphs), the page set the crawl anchor of `pnpm bench:crawl` uses;
 * `--site generated` serves ~2.5 KB generated articles, where a 304's status line and headers are
 * a large share of what a recrawl downloads. The site is crawled once through POST /v1/crawl,
 * then `--changed` % of its pages change (1 % by default), then it is crawled again. Reported for
 * both crawls: pages/s, bytes the site wrote (headers included) and sent as bodies, 304s, and CPU
 * per page by process (gateway, crawl worker, this process serving the site and polling,
 * PostgreSQL, Redis — the last two machine-wide). Targets: recrawl ≥ 5× the first crawl's pages/s,
 * ≤ 2 % of its bytes. One gateway and one crawl-worker process, as `pnpm start` runs them. Before
 * the measured pair, the same processes crawl another copy of the site once (a warm JIT for both;
 * `--no-warm` skips it).
 *
 * Without `--mode`, the `tracked` pair then the `lastmod` pair (each on its own stack and site).
 * `--mode tracked`: both crawls with `formats: ["markdown", "changeTracking"]` (the recrawl
 * is conditional on the account's change history); `--mode max-age`: untracked, the recrawl with
 * `scrapeOptions.maxAge: 1` (every page-cache entry is older than that: each page is asked
 * conditionally, an unchanged one answers 304 and its stored copy is served); `--mode lastmod`:
 * tracked, the site also serves `/sitemap.xml` with every page's `<lastmod>` (gzip-compressed,
 * `Content-Encoding: gzip`, as real servers send it; a changed page's lastmod moves), and the
 * recrawl sets `trustSitemapLastmod` (an unchanged page is not asked at all).
 *
 *   pnpm bench:recrawl [--pages 2000] [--changed 1] [--concurrency 8] [--host-concurrency 8] [--no-warm]
 *                      [--mode both|tracked|max-age|lastmod] [--site real|generated]
 */
import { parseArgs } from 'node:util';
import { type ConditionalSite, type ConditionalSiteOptions, startConditionalSite } from '@wcs/testing';
import { request } from 'undici';
import {
  benchAccount,
  benchArgv,
  benchEnv,
  freePort,
  startService,
  stopProcess,
  vacuumUnlessAutovacuum,
  waitHealthy,
} from './bench-utils';
import { type CpuParts, cpuPerPage, cpuSnapshot, cpuTable } from './cpu-time';
import { readArticleHtml } from './real-page-site';

const { values } = parseArgs({
  args: benchArgv(),
  options: {
    pages: { type: 'string', default: '2000' },
    changed: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '8' },
    'host-concurrency': { type: 'string', default: '8' },
    'no-warm': { type: 'boolean', default: false },
    mode: { type: 'string', default: 'both' },
    site: { type: 'string', default: 'real' },
  },
});
const PAGES = Number(values.pages);
const CHANGED_SHARE = Number(values.changed) / 100;
const CONCURRENCY = Number(values.concurrency);
const HOST_CONCURRENCY = Number(values['host-concurrency']);
/**
 * `tracked`: both crawls ask for `formats: ["markdown", "changeTracking"]` (a tracked recrawl is
 * conditional on the account's history); `max-age`: untracked crawls, the recrawl with
 * `scrapeOptions.maxAge: 1` (conditional on the page cache's copies).
 */
type Mode = 'tracked' | 'lastmod' | 'max-age';
const MODES: Mode[] =
  values.mode === 'max-age' || values.mode === 'lastmod' || values.mode === 'tracked'
    ? [values.mode]
    : ['tracked', 'lastmod'];
const TRACKED = { formats: ['markdown', 'changeTracking'] };
const LINKS = 5;
if (values.site !== 'real' && values.site !== 'generated')
  throw new Error(`--site must be real or generated (got ${values.site})`);
const REAL = values.site === 'real';
/** The site's options: with a gzipped sitemap carrying lastmod in `lastmod` mode. */
const siteOf = (mode: Mode, page?: ConditionalSiteOptions['page']): ConditionalSiteOptions => ({
  pages: PAGES,
  links: LINKS,
  tree: true,
  ...(page ? { page } : {}),
  ...(mode === 'lastmod' ? { sitemap: { gzip: true } } : {}),
});

/**
 * Real pages for the conditional site: page i is article i mod 181 with the site's links before
 * `</body>` (absolute: some articles carry a `<base href>`) and, once changed, a revision note at the
 * end of the article's three longest paragraphs (text, so the change reaches the main content
 * whichever of them the extraction keeps).
 */
function realPages(articles: string[]): NonNullable<ConditionalSiteOptions['page']> {
  const prepared = articles.map((html) => {
    const end = html.toLowerCase().lastIndexOf('</body>');
    const bodyEnd = end < 0 ? html.length : end;
    const paragraphs = [...html.matchAll(/<p[\s>][\s\S]*?<\/p>/gi)]
      .map((m) => ({ at: (m.index ?? 0) + m[0].length - '</p>'.length, length: m[0].length }))
      .filter((p) => p.at < bodyEnd)
      .sort((a, b) => b.length - a.length)
      .slice(0, 3);
    // Cut points in document order: each revision note goes in at one, the links at the body's end.
    const cuts = [...paragraphs.map((p) => p.at).sort((a, b) => a - b), bodyEnd];
    const pieces = cuts.map((at, k) => html.slice(k === 0 ? 0 : cuts[k - 1], at));
    return { pieces, tail: html.slice(bodyEnd) };
  });
  return (i, { version, links }) => {
    const a = prepared[i % prepared.length] as (typeof prepared)[number];
    const revision = version > 0 ? ` Revised: version ${version} of this article.` : '';
    const nav = `<nav class="site-links">${links.map((u) => `<a href="${u}">${u}</a>`).join(' ')}</nav>`;
    const last = a.pieces.length - 1;
    return a.pieces.map((piece, k) => piece + (k < last ? revision : nav)).join('') + a.tail;
  };
}

/** What a crawl and its change history write (vacuumed before each measured crawl without autovacuum). */
const CRAWL_TABLES = ['crawl_pages', 'crawls', 'page_history', 'page_cache', 'credit_ledger', 'accounts'];

/** The first crawl's scrapeOptions (and the warm-up's). */
const firstOf = (mode: Mode) => (mode === 'max-age' ? undefined : TRACKED);
/** Levels of the link tree that hold every page, plus one. */
const MAX_DEPTH = Math.ceil(Math.log(PAGES * (LINKS - 1) + 1) / Math.log(LINKS)) + 1;

interface CrawlRun {
  completed: number;
  failed: number;
  status: string;
  secs: number;
  /** metadata.cacheState of the pages: how many of each. */
  states: Record<string, number>;
  /** changeTracking.changeStatus of the pages (tracked modes): how many of each. */
  changes: Record<string, number>;
  /** metadata.revalidatedBy of the pages (`not-modified`, `sitemap-lastmod`): how many of each. */
  reused: Record<string, number>;
}

async function crawl(
  base: string,
  headers: Record<string, string>,
  site: ConditionalSite,
  scrapeOptions?: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<CrawlRun> {
  const started = performance.now();
  const res = await request(`${base}/v1/crawl`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      url: `${site.url}/page/0`,
      maxPages: PAGES,
      maxDepth: MAX_DEPTH,
      includePaths: ['^/page/\\d+$'],
      ...(scrapeOptions ? { scrapeOptions } : {}),
      ...extra,
    }),
  });
  const { id } = (await res.body.json()) as { id: string };
  let b = { status: 'pending', completed: 0, failed: 0 };
  while (b.status !== 'done' && b.status !== 'failed') {
    await new Promise((r) => setTimeout(r, 200));
    const r = await request(`${base}/v1/crawl/${id}?limit=1`, { headers });
    b = (await r.body.json()) as typeof b;
  }
  const secs = (performance.now() - started) / 1000;
  // The pages' cache states (read after the clock stopped).
  const states: Record<string, number> = {};
  const changes: Record<string, number> = {};
  const reused: Record<string, number> = {};
  let next: string | undefined = `${base}/v1/crawl/${id}?limit=1000`;
  while (next) {
    const r = await request(next, { headers });
    const page = (await r.body.json()) as {
      pages: Array<{
        metadata: { cacheState?: string; revalidatedBy?: string };
        changeTracking?: { changeStatus: string };
      }>;
      next?: string;
    };
    for (const p of page.pages) {
      const s = p.metadata.cacheState ?? 'none';
      states[s] = (states[s] ?? 0) + 1;
      const c = p.changeTracking?.changeStatus;
      if (c) changes[c] = (changes[c] ?? 0) + 1;
      const by = p.metadata.revalidatedBy ?? 'fetched';
      reused[by] = (reused[by] ?? 0) + 1;
    }
    // `next` is the API's own path (relative to the gateway).
    next = page.next ? new URL(page.next, base).toString() : undefined;
  }
  return { completed: b.completed, failed: b.failed, status: b.status, secs, states, changes, reused };
}

interface Measured {
  run: CrawlRun;
  wireBytes: number;
  bodyBytes: number;
  notModified: number;
  cpu: Array<[string, number]>;
}

async function measure(
  site: ConditionalSite,
  parts: () => CpuParts,
  go: () => Promise<CrawlRun>,
): Promise<Measured> {
  site.resetCounts();
  const before = parts();
  const run = await go();
  const cpu = cpuPerPage(before, parts(), Math.max(1, run.completed));
  const c = site.counts();
  return { run, wireBytes: site.wireBytes(), bodyBytes: c.bodyBytes, notModified: c.notModified, cpu };
}

async function main(mode: Mode, page?: ConditionalSiteOptions['page']): Promise<void> {
  const SITE = siteOf(mode, page);
  const FIRST = firstOf(mode);
  const port = await freePort();
  const healthPort = await freePort();
  const common = {
    DATABASE_URL: benchEnv.DATABASE_URL,
    REDIS_URL: benchEnv.REDIS_URL,
    QUEUE_PREFIX: `bench-recrawl-${Date.now()}`,
    LOG_LEVEL: 'warn',
    ALLOW_PRIVATE_TARGETS: 'true',
    RATE_LIMIT_SCALE: '1000000',
  };
  const gateway = startService('gateway', { ...common, PORT: String(port), HOST: '127.0.0.1' });
  const worker = startService('crawl-worker', {
    ...common,
    WORKER_CONCURRENCY: String(CONCURRENCY),
    CRAWL_HOST_CONCURRENCY: String(HOST_CONCURRENCY),
    HEALTH_PORT: String(healthPort),
    HEALTH_HOST: '127.0.0.1',
  });
  const base = `http://127.0.0.1:${port}`;
  const site = await startConditionalSite(SITE);
  let first: Measured;
  let again: Measured;
  let changed: number;
  let vacuumed = false;
  try {
    const { headers } = await benchAccount(10 * PAGES + 1000);
    await waitHealthy(base);
    await waitHealthy(`http://127.0.0.1:${healthPort}`);
    const parts = () => cpuSnapshot({ gateway: gateway.pid, 'crawl-worker': worker.pid, bench: process.pid });
    if (!values['no-warm']) {
      const other = await startConditionalSite(SITE);
      try {
        await crawl(base, headers, other, FIRST);
      } finally {
        await other.close();
      }
    }
    vacuumed = await vacuumUnlessAutovacuum(CRAWL_TABLES);
    first = await measure(site, parts, () => crawl(base, headers, site, FIRST));
    // Days pass between a crawl and its recrawl: a deployment's autovacuum has run by then.
    if (vacuumed) await vacuumUnlessAutovacuum(CRAWL_TABLES);
    // Spread over the site: every (1/share)-th page.
    const step = Math.max(1, Math.round(1 / CHANGED_SHARE));
    changed = 0;
    for (let i = step - 1; i < PAGES; i += step) {
      site.change(i);
      changed++;
    }
    again = await measure(site, parts, () =>
      mode === 'lastmod'
        ? crawl(base, headers, site, TRACKED, { trustSitemapLastmod: true })
        : crawl(base, headers, site, mode === 'tracked' ? TRACKED : { maxAge: 1 }),
    );
  } finally {
    await Promise.all([stopProcess(worker), stopProcess(gateway)]);
    await site.close();
  }

  const KB = (b: number) => `${(b / 1024).toFixed(1)} KB`;
  const row = (what: string, m: Measured) =>
    `| ${what} | ${m.run.completed} done / ${m.run.failed} failed (${m.run.status}) | ${(m.run.completed / m.run.secs).toFixed(1)} | ${(m.run.secs * 1000).toFixed(0)} | ${KB(m.wireBytes)} | ${KB(m.bodyBytes)} | ${m.notModified} | ${Object.entries(
      m.run.states,
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')} | ${Object.entries(m.run.changes)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')} | ${Object.entries(m.run.reused)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')} | ${m.cpu.reduce((s, [, ms]) => s + ms, 0).toFixed(2)} |`;
  console.log(
    `\nRecrawl benchmark: ${PAGES}-page local site with ETag/Last-Modified (${REAL ? `the 181 real article pages, ${(first.bodyBytes / Math.max(1, first.run.completed) / 1024).toFixed(0)} KB a page on average` : '~2.5 KB generated pages'}, ${LINKS} links each), ${changed} pages (${(CHANGED_SHARE * 100).toFixed(1)} %) changed between the crawls; mode ${mode}; 1 crawl worker (concurrency ${CONCURRENCY}, host limit ${HOST_CONCURRENCY})\n`,
  );
  if (vacuumed)
    console.log(
      'PostgreSQL runs without autovacuum here: the bench ran VACUUM (ANALYZE) of the crawl tables before each measured crawl, outside its time.\n',
    );
  console.log(
    '| crawl | pages | pages/s | wall ms | bytes written by the site | body bytes | 304s | cacheState | changeStatus | revalidatedBy | CPU ms/page |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---|---|---|---:|');
  console.log(row('first crawl', first));
  console.log(
    row(
      mode === 'tracked'
        ? 'recrawl (changeTracking: conditional on the account history)'
        : mode === 'lastmod'
          ? 'recrawl (changeTracking + trustSitemapLastmod: unchanged pages not asked)'
          : 'recrawl (scrapeOptions.maxAge: 1: every entry expired, revalidated)',
      again,
    ),
  );
  const speed = again.run.completed / again.run.secs / (first.run.completed / first.run.secs);
  const bytes = again.wireBytes / Math.max(1, first.wireBytes);
  console.log(
    `\nrecrawl pages/s / first crawl pages/s: ${speed.toFixed(2)}× (target ≥ 5×) ${speed >= 5 ? 'PASS' : 'FAIL'}`,
  );
  console.log(
    `recrawl bytes / first crawl bytes: ${(bytes * 100).toFixed(2)} % (target ≤ 2 %) ${bytes <= 0.02 ? 'PASS' : 'FAIL'}`,
  );
  // A 304 still carries a status line and headers (~200 bytes: Date, ETag, Last-Modified,
  // Keep-Alive): with small pages they, not bodies, are most of what a recrawl downloads.
  const bodies = again.bodyBytes / Math.max(1, first.bodyBytes);
  console.log(`recrawl body bytes / first crawl body bytes: ${(bodies * 100).toFixed(2)} %`);
  console.log(`\n${cpuTable('CPU per page, first crawl:', first.cpu)}`);
  console.log(`\n${cpuTable('CPU per page, recrawl:', again.cpu)}`);
}

(async () => {
  // Without --mode: the conditional recrawl and the one that trusts the sitemap's lastmod, each on
  // its own stack and site, one after the other.
  const page = REAL ? realPages(await readArticleHtml()) : undefined;
  for (const mode of MODES) await main(mode, page);
})().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
