import type { CrawlOptions } from '@wcs/db';
import { CpuSlicer, compilePathRules, isSameSite, type UrlIdentity } from '@wcs/discovery';
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

/** What a full memo may hold (~128 bytes a URL and its entry): its crawl context's size counts it. */
export const REFUSED_MEMO_BYTES = MAX_REFUSED * 128;

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
  private readonly rules: (url: string) => boolean;
  /** URLs refused by `allowedByUrl` (a verdict of the URL alone: it cannot change for the crawl). */
  private readonly refused = new Set<string>();

  constructor(
    private readonly scope: CrawlScope,
    private readonly robots: RobotsCache,
  ) {
    this.rules = compilePathRules({
      includePaths: scope.options.includePaths,
      excludePaths: scope.options.excludePaths,
    });
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
      if (!this.allowedByUrl(url)) {
        if (this.refused.size >= MAX_REFUSED) this.refused.clear();
        this.refused.add(url);
        continue;
      }
      const id = key === candidate.key ? candidate : { ...candidate, key };
      if (!(await this.robotsAllow(url))) continue;
      out.push(id);
    }
    return out;
  }

  /** How many refused URLs the filter remembers (for tests and logs). */
  get refusedCount(): number {
    return this.refused.size;
  }

  /** Same site (unless external links are allowed), not an obvious file, within the path rules. */
  private allowedByUrl(url: string): boolean {
    const external = this.scope.options.allowExternalLinks === true;
    if (!external && !isSameSite(url, this.scope.crawlUrl, this.scope.options.allowSubdomains)) return false;
    if (NOT_A_PAGE.test(new URL(url).pathname)) return false;
    return this.rules(url);
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
