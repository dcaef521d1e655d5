/**
 * `map` jobs: list a site's URLs fast, without a crawl. Sources, in this order of the answer:
 * the start page (and its links; rendered with engine `auto`), the sitemaps (robots.txt `Sitemap:`
 * lines, else /sitemap.xml and /sitemap_index.xml; indexes and gzip included), then links of a
 * shallow crawl (depth 1, MAP_SHALLOW_PAGES pages, plain fetch). URLs are listed as written
 * (resolved, no fragment), de-duplicated by `urlKey`, same-site and robots-allowed; `search`
 * filters and ranks; `maxUrls` caps. The job budget bounds everything: when it runs out we answer
 * with what was found. A start page that fails (HTTP error, blocked, timeout, unreachable) is a
 * `warning` when the other sources found links, and the map's error only when nothing was found.
 *
 * Time: the sources (robots, sitemaps, pages) stop a reserve before the answer is due; the CPU
 * work after them (merging, same-site and robots filtering, `search` ranking) runs in time slices
 * (CpuSlicer: yields to the event loop every ~10 ms, so lock renewal and the worker's other jobs
 * keep running) until the answer is due, then answers with what it has checked, with a `warning`.
 * The caller's `signal` (the gateway stopped waiting, or BullMQ cancelled the job) stops
 * everything at once and the job fails: nobody is waiting for an answer.
 */
import {
  allowAllRobots,
  CpuSlicer,
  collectSitemapUrls,
  type ExtractedLink,
  extractPageLinks,
  isSameSite,
  type PageHead,
  resolveUrl,
  type SitemapCollection,
  urlKey,
} from '@wcs/discovery';
import {
  type ServiceError,
  TargetBlockedError,
  TargetHttpError,
  TimeoutError,
  toServiceError,
} from '@wcs/errors';
import type { Logger } from '@wcs/logger';
import { BLOCK_STATUSES, type Dispatcher, HTML_TYPES } from '@wcs/net';
import type { Job, JobContext, MapJobResult, PayloadOf } from '@wcs/queues';
import type { Renderer, RenderResult } from '@wcs/renderer';
import { originOf, RobotsBook } from './map-robots-book';
import { type MapCandidate, rankBySearchSliced } from './map-search';

/** How long a sitemap file may outlast the sources' budget: its signal, not this, ends it. */
const SITEMAP_TIMEOUT_MARGIN_MS = 1_000;
export interface MapSettings {
  userAgent: string;
  shallowPages: number;
  concurrency: number;
  pageTimeoutMs: number;
  sitemapMaxFiles: number;
  robotsMaxOrigins: number;
}

export interface MapDeps {
  renderer: Renderer;
  /** SSRF-safe dispatcher (createSafeDispatcher) for robots.txt and sitemaps. */
  dispatcher: Dispatcher;
  logger: Pick<Logger, 'info' | 'debug' | 'warn'>;
  settings: MapSettings;
}

export interface MapRunOptions {
  /** Aborted when nobody waits for the answer any more: the map stops and fails. */
  signal?: AbortSignal;
}

const SITEMAP_HARD_CAP = 100_000;
// Not worth a shallow-crawl fetch: they cannot contain links we parse. Only the fetch is skipped:
// such URLs are still listed (a PDF or DOCX is a scrapeable document).
const NOT_A_PAGE =
  /\.(?:pdf|jpe?g|png|gif|svg|webp|avif|ico|css|js|mjs|json|xml|txt|zip|gz|tgz|rar|7z|mp[34]|webm|mov|avi|woff2?|ttf|eot|docx?|xlsx?|pptx?|csv)$/i;

function isHtml(contentType: string): boolean {
  return HTML_TYPES.has(contentType);
}

/**
 * When the answer is due (a margin before the gateway's own timeout, so it gets our result and
 * not its 504) and when the sources stop (a share kept for the CPU phase). The end is the
 * payload's `deadlineAt` when the job waited in the queue, else start + timeout.
 */
function timeline(started: number, timeoutMs: number, deadlineAt: number | undefined) {
  const end = Math.min(started + timeoutMs, deadlineAt ?? Number.POSITIVE_INFINITY);
  const total = Math.max(0, end - started);
  const answerBy = end - Math.min(2_000, Math.floor(total * 0.1));
  const sourcesUntil = answerBy - Math.min(2_000, Math.floor(total * 0.15));
  return { answerBy, sourcesUntil };
}

/** The processor `defineWorker` runs: the job context's signal (deadline, cancel) stops the map. */
export function mapProcessor(deps: MapDeps) {
  return (payload: PayloadOf<'map'>, _job: Job, ctx: JobContext): Promise<MapJobResult> =>
    runMap(deps, payload, { signal: ctx.signal });
}

export async function runMap(
  deps: MapDeps,
  p: PayloadOf<'map'>,
  opts: MapRunOptions = {},
): Promise<MapJobResult> {
  const { renderer, settings, logger } = deps;
  const started = Date.now();
  const { answerBy, sourcesUntil } = timeline(started, p.timeoutMs, p.deadlineAt);
  const remaining = () => Math.max(1, sourcesUntil - Date.now());
  const caller = opts.signal;
  // `budget` ends the sources; `answer` ends the CPU phase. The caller's signal ends both.
  const budget = new AbortController();
  const answer = new AbortController();
  const sourcesTimer = setTimeout(
    () => budget.abort(new TimeoutError(`Map budget of ${p.timeoutMs} ms used up`)),
    remaining(),
  );
  const answerTimer = setTimeout(
    () => answer.abort(new TimeoutError('map answer due')),
    answerBy - Date.now(),
  );
  const onCaller = () => {
    budget.abort(caller?.reason);
    answer.abort(caller?.reason);
  };
  if (caller?.aborted) onCaller();
  else caller?.addEventListener('abort', onCaller, { once: true });
  const cancelled = () => new TimeoutError(`Map of ${p.url} cancelled: the caller stopped waiting`);
  const book = new RobotsBook(
    {
      dispatcher: deps.dispatcher,
      userAgent: settings.userAgent,
      maxOrigins: settings.robotsMaxOrigins,
      logger,
    },
    budget.signal,
    remaining,
  );
  const subs = p.includeSubdomains;
  const slicer = new CpuSlicer({ signal: answer.signal });

  try {
    const start = resolveUrl(p.url) ?? p.url;
    const startKey = urlKey(start) ?? start;
    const startOrigin = new URL(start).origin;
    const startRobots = (await book.load(startOrigin)) ?? allowAllRobots();

    // Sitemaps run while the start page and the shallow crawl are fetched.
    const sitemapCap = p.search ? SITEMAP_HARD_CAP : Math.min(SITEMAP_HARD_CAP, p.maxUrls * 2 + 1_000);
    const sitemapsDone: Promise<SitemapCollection> = p.ignoreSitemap
      ? Promise.resolve({ urls: [], errors: [] })
      : collectSitemapUrls(
          startRobots.sitemaps.length > 0
            ? startRobots.sitemaps
            : [`${startOrigin}/sitemap.xml`, `${startOrigin}/sitemap_index.xml`],
          {
            dispatcher: deps.dispatcher,
            userAgent: settings.userAgent,
            // The budget's signal ends the reading (and the answer then says the budget stopped
            // it); a file timeout on the same deadline could fire first and read as a failed file.
            timeoutMs: remaining() + SITEMAP_TIMEOUT_MARGIN_MS,
            maxUrls: sitemapCap,
            maxFiles: settings.sitemapMaxFiles,
            signal: budget.signal,
          },
        );
    let sitemapCount = 0;
    void sitemapsDone.then((s) => {
      sitemapCount = s.urls.length;
    });

    // The start page. Its failure is kept: a warning if other sources find links, else the error.
    let finalUrl = start;
    let finalKey = startKey;
    let startLinks: ExtractedLink[] = [];
    let startError: ServiceError | null = null;
    const warnings: string[] = [];
    // Title and description of the pages fetched here, by key (asked and final URL): `pages`.
    const heads = new Map<string, PageHead>();
    const keepHead = (urls: string[], head: PageHead) => {
      if (!p.linkMetadata || (head.title === undefined && head.description === undefined)) return;
      for (const u of urls) {
        const k = urlKey(u);
        if (k && !heads.has(k)) heads.set(k, head);
      }
    };
    const startAllowed = startRobots.isAllowed(start);
    // `sitemapOnly`: the sitemaps are the answer; no page is fetched.
    if (startAllowed && !p.sitemapOnly) {
      try {
        const page = await fetchStartPage(renderer, start, {
          timeoutMs: Math.min(settings.pageTimeoutMs, remaining()),
          budget: budget.signal,
          budgetMs: p.timeoutMs,
        });
        finalUrl = resolveUrl(page.finalUrl) ?? start;
        finalKey = urlKey(finalUrl) ?? startKey;
        if (isHtml(page.contentType)) {
          const found = extractPageLinks(page.body, page.finalUrl);
          startLinks = found.links;
          keepHead([start, page.finalUrl], found.head);
          if (found.truncated)
            warnings.push(
              `The start page has more links than ${found.links.length}; the first ones were read`,
            );
        } else
          warnings.push(
            `The start page is not HTML (${page.contentType || 'no content type'}): its links were not read`,
          );
      } catch (err) {
        if (caller?.aborted) throw cancelled();
        startError = toServiceError(err);
        warnings.push(
          `The start page failed (${startError.code}: ${startError.message}); links come from the other sources`,
        );
      }
    }
    // Same-site depends only on the origin: decide once per origin.
    const siteByOrigin = new Map<string, boolean>();
    const sameSite = (u: string) => {
      const o = originOf(u);
      let v = siteByOrigin.get(o);
      if (v === undefined) {
        v = isSameSite(`${o}/`, start, subs) || isSameSite(`${o}/`, finalUrl, subs);
        siteByOrigin.set(o, v);
      }
      return v;
    };

    // Shallow crawl: same-site, followable, robots-allowed pages linked from the start page.
    const shallowLinks: ExtractedLink[] = [];
    const toVisit = startLinks
      .filter((l) => !l.nofollow && l.key !== startKey && l.key !== finalKey && sameSite(l.url))
      .filter((l) => !NOT_A_PAGE.test(new URL(l.url).pathname))
      .map((l) => l.url);
    // Only URLs whose robots.txt was read are candidates (unknown origins count as allowed).
    const considered = toVisit.slice(0, settings.shallowPages * 3);
    await book.loadAll(new Set(considered.map(originOf)));
    const queue = considered.filter((u) => book.allows(u)).slice(0, settings.shallowPages);
    // Without `search`, stop fetching once the sources clearly hold more than we may return.
    const enough = () => !p.search && startLinks.length + sitemapCount + shallowLinks.length >= p.maxUrls * 2;
    let fetched = 0;
    const worker = async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        if (budget.signal.aborted || enough()) return;
        try {
          const page = await renderer.render({
            url: next,
            engine: 'fetch',
            timeoutMs: Math.min(settings.pageTimeoutMs, remaining()),
            signal: budget.signal,
          });
          fetched++;
          if (page.statusCode < 400 && isHtml(page.contentType)) {
            const found = extractPageLinks(page.body, page.finalUrl);
            for (const l of found.links) shallowLinks.push(l);
            keepHead([next, page.finalUrl], found.head);
          }
        } catch (err) {
          logger.debug({ url: next, err: String(err) }, 'map: shallow page failed');
        }
        // a shallow page's links were parsed synchronously: let the worker's other jobs in
        if (slicer.due()) await slicer.pause();
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, settings.concurrency) }, worker));
    const sitemaps = await sitemapsDone;
    if (caller?.aborted) throw cancelled();
    if (sitemaps.stopped)
      warnings.push(
        `The time budget ran out while reading the sitemaps (${sitemaps.urls.length} URLs read); the list may be incomplete`,
      );

    // Sources in answer order (the start page, its links, sitemaps, shallow links).
    const sources = function* (): Generator<[key: string, url: string, text: string]> {
      if (startAllowed && !startError && !p.sitemapOnly) yield [finalKey, finalUrl, ''];
      for (const l of startLinks) yield [l.key, l.url, l.text];
      for (const u of sitemaps.urls) yield [u.key, u.url, ''];
      for (const l of shallowLinks) yield [l.key, l.url, l.text];
    };
    // robots.txt of every same-site origin among them (cheap: string slicing, one Set).
    const siteOrigins = new Set<string>();
    for (const [, url] of sources()) {
      const o = originOf(url);
      if (!siteOrigins.has(o) && sameSite(url)) siteOrigins.add(o);
    }
    await book.loadAll(siteOrigins);
    if (caller?.aborted) throw cancelled();

    // One pass in answer order: de-duplicate by key (first spelling listed, first non-empty link
    // text kept for `search`), same-site, robots. Without `search` it stops at `maxUrls`.
    const byKey = new Map<string, MapCandidate | null>(); // null: seen and rejected
    let candidates: MapCandidate[] = [];
    let siteFound = 0;
    let checked = 0;
    let cut = false;
    for (const [key, url, text] of sources()) {
      if (slicer.due() && !(await slicer.pause())) {
        cut = true;
        break;
      }
      checked++;
      const seen = byKey.get(key);
      if (seen !== undefined) {
        if (seen && !seen.text && text) seen.text = text;
        continue;
      }
      if (!sameSite(url)) {
        byKey.set(key, null);
        continue;
      }
      siteFound++;
      if (!book.allows(url)) {
        byKey.set(key, null);
        continue;
      }
      const c = { url, text };
      byKey.set(key, c);
      candidates.push(c);
      if (!p.search && candidates.length >= p.maxUrls) break;
    }
    if (p.search && !cut) {
      const ranked = await rankBySearchSliced(candidates, p.search, slicer);
      candidates = ranked.ranked;
      cut = !ranked.complete;
    }
    if (caller?.aborted) throw cancelled();
    if (cut) {
      warnings.push(
        `The time budget ran out while filtering ${p.search ? 'and ranking ' : ''}the URLs found (${checked} checked); the list may be incomplete`,
      );
    }
    const links = candidates.slice(0, p.maxUrls).map((c) => c.url);
    // Nothing found anywhere: the start page's failure is the answer (the credit is refunded).
    if (startError && siteFound === 0) throw startError;

    logger.info(
      {
        url: start,
        links: links.length,
        sitemapUrls: sitemaps.urls.length,
        sitemapErrors: sitemaps.errors.slice(0, 5),
        startLinks: startLinks.length,
        startError: startError?.code,
        shallowPages: fetched,
        budgetExhausted: budget.signal.aborted,
        filterCut: cut,
        yields: slicer.yields,
        ms: Date.now() - started,
      },
      'map done',
    );
    const pages = p.linkMetadata
      ? links.map((url) => {
          const head = heads.get(urlKey(url) ?? url);
          return { url, ...head };
        })
      : undefined;
    return {
      links,
      total: links.length,
      ...(pages ? { pages } : {}),
      ...(warnings.length ? { warning: warnings.join('; ') } : {}),
    };
  } finally {
    clearTimeout(sourcesTimer);
    clearTimeout(answerTimer);
    caller?.removeEventListener('abort', onCaller);
    if (!budget.signal.aborted) budget.abort(new Error('map finished'));
  }
}

/** The start page, its HTTP errors and blocks as errors (a timeout of the budget says so). */
async function fetchStartPage(
  renderer: Renderer,
  url: string,
  o: { timeoutMs: number; budget: AbortSignal; budgetMs: number },
): Promise<RenderResult> {
  let page: RenderResult;
  try {
    page = await renderer.render({ url, engine: 'auto', timeoutMs: o.timeoutMs, signal: o.budget });
  } catch (err) {
    if (o.budget.aborted)
      throw new TimeoutError(
        `Map of ${url}: the start page did not answer within the ${o.budgetMs} ms budget`,
      );
    throw err;
  }
  if (BLOCK_STATUSES.has(page.statusCode)) {
    throw new TargetBlockedError(`Target refused automated access (HTTP ${page.statusCode})`, {
      details: { statusCode: page.statusCode },
    });
  }
  if (page.statusCode >= 400) throw new TargetHttpError(page.statusCode);
  return page;
}
