/**
 * `map` jobs: list a site's URLs fast, without a crawl. Sources, in this order of the answer:
 * the start page (and its links; rendered with engine `auto`), the sitemaps (robots.txt `Sitemap:`
 * lines, else /sitemap.xml and /sitemap_index.xml; indexes and gzip included), then links of a
 * shallow crawl (depth 1, MAP_SHALLOW_PAGES pages, plain fetch). Everything is normalised,
 * de-duplicated, same-site and robots-allowed; `search` filters and ranks; `maxUrls` caps.
 * The job budget bounds everything: when it runs out we answer with what was found — except for
 * the start page, whose failure (unreachable, DNS, forbidden, HTTP error, timeout) is the error.
 */
import {
  allowAllRobots,
  collectSitemapUrls,
  extractLinks,
  fetchRobots,
  isSameSite,
  normalizeUrl,
  type Robots,
  type SitemapCollection,
} from '@wcs/discovery';
import { TargetBlockedError, TargetHttpError, TimeoutError } from '@wcs/errors';
import type { Logger } from '@wcs/logger';
import type { MapJobResult, PayloadOf } from '@wcs/queues';
import type { Renderer } from '@wcs/renderer';
import type { Dispatcher } from 'undici';
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
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const BLOCK_STATUSES = new Set([401, 403, 429, 451]);
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

/** Origin of a normalised URL by string slicing: no URL parse per URL on 100k-URL maps. */
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
    const start = normalizeUrl(p.url) ?? p.url;
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

    // The start page: its failure is the map's failure (never an empty success).
    let finalUrl = start;
    let startLinks: ReturnType<typeof extractLinks> = [];
    const startAllowed = startRobots.isAllowed(start);
    if (startAllowed) {
      let page: Awaited<ReturnType<Renderer['render']>>;
      try {
        page = await renderer.render({
          url: start,
          engine: 'auto',
          timeoutMs: Math.min(settings.pageTimeoutMs, remaining()),
          signal: budget.signal,
        });
      } catch (err) {
        if (budget.signal.aborted)
          throw new TimeoutError(
            `Map of ${start}: the start page did not answer within the ${p.timeoutMs} ms budget`,
          );
        throw err;
      }
      if (BLOCK_STATUSES.has(page.statusCode)) {
        throw new TargetBlockedError(`Target refused automated access (HTTP ${page.statusCode})`, {
          details: { statusCode: page.statusCode },
        });
      }
      if (page.statusCode >= 400) throw new TargetHttpError(page.statusCode);
      finalUrl = normalizeUrl(page.finalUrl) ?? start;
      if (isHtml(page.contentType)) startLinks = extractLinks(page.body, page.finalUrl);
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
    const shallowLinks: Array<{ url: string; text: string }> = [];
    const toVisit = startLinks
      .filter((l) => !l.nofollow && l.url !== start && l.url !== finalUrl && sameSite(l.url))
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

    // Merge in answer order; the first non-empty link text wins (used by `search`).
    const merged = new Map<string, string>();
    const add = (url: string, text: string) => {
      const seen = merged.get(url);
      if (seen === undefined) merged.set(url, text);
      else if (!seen && text) merged.set(url, text);
    };
    if (startAllowed) add(finalUrl, '');
    for (const l of startLinks) add(l.url, l.text);
    for (const u of sitemaps.urls) add(u, '');
    for (const l of shallowLinks) add(l.url, l.text);

    const siteUrls = [...merged.keys()].filter(sameSite);
    const robotsAllow = await book.predicate(siteUrls);
    let candidates: MapCandidate[] = siteUrls
      .filter(robotsAllow)
      .map((url) => ({ url, text: merged.get(url) ?? '' }));
    if (p.search) candidates = rankBySearch(candidates, p.search);
    const links = candidates.slice(0, p.maxUrls).map((c) => c.url);

    logger.info(
      {
        url: start,
        links: links.length,
        sitemapUrls: sitemaps.urls.length,
        sitemapErrors: sitemaps.errors.slice(0, 5),
        startLinks: startLinks.length,
        shallowPages: fetched,
        budgetExhausted: budget.signal.aborted,
        ms: Date.now() - started,
      },
      'map done',
    );
    return { links, total: links.length };
  } finally {
    clearTimeout(timer);
    if (!budget.signal.aborted) budget.abort(new Error('map finished'));
  }
}
