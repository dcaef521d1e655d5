import type { CrawlOptions } from '@wcs/db';
import { CpuSlicer, compilePathRules, sameSiteAs, type UrlIdentity } from '@wcs/discovery';
import type { RobotsCache } from './robots-cache';

// Links to files that are never pages: following them would spend the crawl's maxPages budget
// on 415 failures. Anything else is tried (a page's content type decides). PDF and DOCX are
// documents the service converts, so they are followed; legacy .doc and other office files are not.
export const NOT_A_PAGE =
  /\.(?:png|jpe?g|gif|webp|svg|ico|bmp|tiff?|avif|css|js|mjs|map|json|xml|rss|atom|zip|gz|tgz|bz2|xz|7z|rar|tar|exe|dmg|msi|apk|iso|bin|woff2?|ttf|otf|eot|mp3|mp4|m4a|m4v|webm|ogg|ogv|wav|flac|avi|mov|mkv|wmv|doc|xlsx?|pptx?|odt|ods|csv)$/i;

/** The frontier key of a URL key: without its query when the crawl ignores query parameters. */
export function frontierKey(key: string, options: Pick<CrawlOptions, 'ignoreQueryParameters'>): string {
  if (!options.ignoreQueryParameters) return key;
  const q = key.indexOf('?');
  return q < 0 ? key : key.slice(0, q);
}

/**
 * URLs a filter remembers as refused by the URL alone: a page's navigation, footer and outside
 * links come back with every page of a site (~95 a page on real articles, most of them to other
 * sites), and judging each again parsed it twice. Past this many the memo starts over.
 */
const MAX_REFUSED = 2_000;

/**
 * Origins (`scheme://authority` as the URL writes it) found to be of another site. Most of a real
 * page's links go to other sites, and each new one was parsed to learn that: the verdict depends on
 * the origin alone, and a crawl meets a few hundred of them.
 */
const MAX_OTHER_SITES = 1_000;

/** What both full memos may hold (~128 bytes an entry): the crawl context's size counts it. */
export const REFUSED_MEMO_BYTES = (MAX_REFUSED + MAX_OTHER_SITES) * 128;

/** `scheme://authority` of a URL as written (everything before the path's first `/`), or null. */
function originOf(url: string): string | null {
  const scheme = url.indexOf('://');
  if (scheme < 0) return null;
  const path = url.indexOf('/', scheme + 3);
  // Scheme, host and port all end before the first `/` (or at a `\`, `?` or `#` before it), so
  // two URLs with the same text up to it get the same same-site verdict.
  return path < 0 ? null : url.slice(0, path);
}

export interface CrawlScope {
  crawlId: string;
  crawlUrl: string;
  robotsTxt: string | null;
  options: CrawlOptions;
}

/**
 * Which URLs join a crawl's frontier: unique by key, same site (subdomains when allowed; any host
 * with allowExternalLinks, each judged by the address policy when fetched), passing
 * includePaths/excludePaths (path + query, see @wcs/discovery), not an obvious file, and allowed
 * by the robots.txt of their origin unless the crawl ignores it.
 */
export class LinkFilter {
  private readonly rules: (url: string | URL) => boolean;
  private readonly sameSite: (url: URL) => boolean;
  /** URLs refused by `verdictByUrl` (a verdict of the URL alone: it cannot change for the crawl). */
  private readonly refused = new Set<string>();
  /** Origins of other sites (`originOf`), refused without parsing a URL. */
  private readonly otherSites = new Set<string>();

  constructor(
    private readonly scope: CrawlScope,
    private readonly robots: RobotsCache,
  ) {
    this.rules = compilePathRules({
      includePaths: scope.options.includePaths,
      excludePaths: scope.options.excludePaths,
    });
    this.sameSite = sameSiteAs(scope.crawlUrl, scope.options.allowSubdomains);
  }

  /**
   * The accepted URLs among `found`, de-duplicated by (frontier) key, in input order, at most `max`,
   * leaving out the keys in `known` (already in the frontier: they do not count toward `max`). Yields
   * to the event loop every ~10 ms: a start job filters up to CRAWL_SITEMAP_MAX_URLS sitemap URLs,
   * and awaiting cached robots alone never lets the worker's other jobs (or lock renewal) run.
   */
  async accept<T extends UrlIdentity>(
    found: Iterable<T>,
    max: number,
    known?: ReadonlySet<string>,
  ): Promise<T[]> {
    const out: T[] = [];
    const seen = new Set<string>();
    const slicer = new CpuSlicer();
    for (const candidate of found) {
      if (out.length >= max) break;
      if (slicer.due()) await slicer.pause();
      const key = frontierKey(candidate.key, this.scope.options);
      if (seen.has(key) || known?.has(key)) continue;
      seen.add(key);
      const url = candidate.url;
      if (this.refused.has(url)) continue;
      const verdict = this.verdictByUrl(url);
      if (verdict !== 'allowed') {
        if (verdict === 'refused') remember(this.refused, url, MAX_REFUSED);
        continue;
      }
      const id = key === candidate.key ? candidate : { ...candidate, key };
      if (!(await this.robotsAllow(url))) continue;
      out.push(id);
    }
    return out;
  }

  /** How many refused URLs and other sites' origins the filter remembers (for tests and logs). */
  get refusedCount(): number {
    return this.refused.size + this.otherSites.size;
  }

  /**
   * Same site (unless external links are allowed), not an obvious file, within the path rules; the
   * URL parsed once. 'other-site' is remembered here by origin, 'refused' by the caller by URL.
   */
  private verdictByUrl(url: string): 'allowed' | 'refused' | 'other-site' {
    const external = this.scope.options.allowExternalLinks === true;
    const origin = external ? null : originOf(url);
    if (origin !== null && this.otherSites.has(origin)) return 'other-site';
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'refused';
    }
    if (!external && !this.sameSite(parsed)) {
      if (origin !== null) remember(this.otherSites, origin, MAX_OTHER_SITES);
      return 'other-site';
    }
    if (NOT_A_PAGE.test(parsed.pathname)) return 'refused';
    return this.rules(parsed) ? 'allowed' : 'refused';
  }

  async robotsAllow(url: string): Promise<boolean> {
    const robots = await this.robots.forUrl(
      {
        crawlId: this.scope.crawlId,
        crawlUrl: this.scope.crawlUrl,
        robotsTxt: this.scope.robotsTxt,
        ignoreRobotsTxt: this.scope.options.ignoreRobotsTxt,
      },
      url,
    );
    return robots === null || robots.isAllowed(url);
  }
}

/** Adds to a bounded memo: past `max` entries it starts over. */
function remember(memo: Set<string>, value: string, max: number): void {
  if (memo.size >= max) memo.clear();
  memo.add(value);
}
