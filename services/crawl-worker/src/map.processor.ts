/**
 * `map` jobs: list a site's URLs fast, without a crawl. Sources, in this order of the answer:
 * the start page (and its links; rendered with engine `auto`), the sitemaps (robots.txt `Sitemap:`
 * lines, else /sitemap.xml and /sitemap_index.xml; indexes and gzip included), then links of a
 * shallow crawl (depth 1, MAP_SHALLOW_PAGES pages, plain fetch). URLs are listed as written
 * (resolved, no fragment), de-duplicated by `urlKey`, same-site and robots-allowed; `search`
 * filters and ranks; `maxUrls` caps. The job budget bounds everything: when it runs out we answer
 * with what was found. A start page that fails (HTTP error, blocked, timeout, unreachable) is a
 * `warning` when the other sources found links, and the map's error only when nothing was found.
 */
import {
  allowAllRobots,
  collectSitemapUrls,
  extractLinks,
  fetchRobots,
  isSameSite,
  type Robots,
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
import type { MapJobResult, PayloadOf } from '@wcs/queues';
import type { Renderer, RenderResult } from '@wcs/renderer';
import { type MapCandidate, rankBySearch } from './map-search';

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

const SITEMAP_HARD_CAP = 100_000;
// Not worth a shallow-crawl fetch: they cannot contain links we parse.
const NOT_A_PAGE =
  /\.(?:pdf|jpe?g|png|gif|svg|webp|avif|ico|css|js|mjs|json|xml|txt|zip|gz|tgz|rar|7z|mp[34]|webm|mov|avi|woff2?|ttf|eot|docx?|xlsx?|pptx?|csv)$/i;

/** robots.txt per origin, fetched once per map; origins beyond the cap are not checked. */
class RobotsBook {
  private readonly byOrigin = new Map<string, Promise<Robots>>();
  constructor(
    private readonly deps: MapDeps,
    private readonly signal: AbortSignal,
    private readonly remaining: () => number,
  ) {}

  load(origin: string): Promise<Robots> | null {
    const known = this.byOrigin.get(origin);
    if (known) return known;
    if (this.byOrigin.size >= this.deps.settings.robotsMaxOrigins) return null;
    const p = fetchRobots(origin, {
      dispatcher: this.deps.dispatcher,
      userAgent: this.deps.settings.userAgent,
      timeoutMs: this.remaining(),
      signal: this.signal,
    }).then((r) => {
      if (r.error) this.deps.logger.debug({ origin, error: r.error }, 'robots.txt unreadable; allowing all');
      return r.robots;
    });
    this.byOrigin.set(origin, p);
    return p;
  }

  /** Fetch every origin's robots.txt (bounded), then a synchronous predicate. */
  async predicate(urls: Iterable<string>): Promise<(url: string) => boolean> {
    const origins = new Set<string>();
    for (const u of urls) origins.add(originOf(u));
    const loaded = new Map<string, Robots>();
    await Promise.all(
      [...origins].map(async (o) => {
        const p = this.load(o);
        if (p) loaded.set(o, await p);
      }),
    );
    return (url) => loaded.get(originOf(url))?.isAllowed(url) ?? true;
  }
}

/** Origin of a resolved URL by string slicing: no URL parse per URL on 100k-URL maps. */
function originOf(normalized: string): string {
  const slash = normalized.indexOf('/', normalized.indexOf('://') + 3);
  return slash === -1 ? normalized : normalized.slice(0, slash);
}

function isHtml(contentType: string): boolean {
  return HTML_TYPES.has(contentType);
}

export function mapProcessor(deps: MapDeps) {
  return (payload: PayloadOf<'map'>): Promise<MapJobResult> => runMap(deps, payload);
}

export async function runMap(deps: MapDeps, p: PayloadOf<'map'>): Promise<MapJobResult> {
  const { renderer, settings, logger } = deps;
  const started = Date.now();
  // Answer a little before the budget so the gateway gets our result, not its own timeout.
  const deadline = started + p.timeoutMs - Math.min(2_000, Math.floor(p.timeoutMs * 0.1));
  const remaining = () => Math.max(1, deadline - Date.now());
  const budget = new AbortController();
  const timer = setTimeout(
    () => budget.abort(new TimeoutError(`Map budget of ${p.timeoutMs} ms used up`)),
    remaining(),
  );
  const book = new RobotsBook(deps, budget.signal, remaining);
  const subs = p.includeSubdomains;

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
            timeoutMs: remaining(),
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
    let startLinks: ReturnType<typeof extractLinks> = [];
    let startError: ServiceError | null = null;
    const warnings: string[] = [];
    const startAllowed = startRobots.isAllowed(start);
    if (startAllowed) {
      try {
        const page = await fetchStartPage(renderer, start, {
          timeoutMs: Math.min(settings.pageTimeoutMs, remaining()),
          budget: budget.signal,
          budgetMs: p.timeoutMs,
        });
        finalUrl = resolveUrl(page.finalUrl) ?? start;
        finalKey = urlKey(finalUrl) ?? startKey;
        if (isHtml(page.contentType)) startLinks = extractLinks(page.body, page.finalUrl);
        else
          warnings.push(
            `The start page is not HTML (${page.contentType || 'no content type'}): its links were not read`,
          );
      } catch (err) {
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
    const shallowLinks: ReturnType<typeof extractLinks> = [];
    const toVisit = startLinks
      .filter((l) => !l.nofollow && l.key !== startKey && l.key !== finalKey && sameSite(l.url))
      .filter((l) => !NOT_A_PAGE.test(new URL(l.url).pathname))
      .map((l) => l.url);
    // Only URLs whose robots.txt was read are candidates (the predicate allows unknown origins).
    const considered = toVisit.slice(0, settings.shallowPages * 3);
    const allowed = await book.predicate(considered);
    const queue = considered.filter(allowed).slice(0, settings.shallowPages);
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
            for (const l of extractLinks(page.body, page.finalUrl)) shallowLinks.push(l);
          }
        } catch (err) {
          logger.debug({ url: next, err: String(err) }, 'map: shallow page failed');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, settings.concurrency) }, worker));
    const sitemaps = await sitemapsDone;

    // Merge in answer order by key (the first spelling is listed); the first non-empty link text
    // wins (used by `search`).
    const merged = new Map<string, MapCandidate>();
    const add = (key: string, url: string, text: string) => {
      const seen = merged.get(key);
      if (seen === undefined) merged.set(key, { url, text });
      else if (!seen.text && text) seen.text = text;
    };
    if (startAllowed && !startError) add(finalKey, finalUrl, '');
    for (const l of startLinks) add(l.key, l.url, l.text);
    for (const u of sitemaps.urls) add(u.key, u.url, '');
    for (const l of shallowLinks) add(l.key, l.url, l.text);

    const siteCandidates = [...merged.values()].filter((c) => sameSite(c.url));
    const robotsAllow = await book.predicate(siteCandidates.map((c) => c.url));
    let candidates: MapCandidate[] = siteCandidates.filter((c) => robotsAllow(c.url));
    if (p.search) candidates = rankBySearch(candidates, p.search);
    const links = candidates.slice(0, p.maxUrls).map((c) => c.url);
    // Nothing found anywhere: the start page's failure is the answer (the credit is refunded).
    if (startError && siteCandidates.length === 0) throw startError;

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
        ms: Date.now() - started,
      },
      'map done',
    );
    return { links, total: links.length, ...(warnings.length ? { warning: warnings.join('; ') } : {}) };
  } finally {
    clearTimeout(timer);
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
