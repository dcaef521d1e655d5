import { allowAllRobots, fetchRobots, parseRobots, type Robots, userAgentToken } from '@wcs/discovery';
import type { Dispatcher } from '@wcs/net';

const MAX_ENTRIES = 500;
const FETCHED_TTL_MS = 10 * 60_000;

interface Entry {
  robots: Robots;
  expires: number;
}

/**
 * robots.txt per origin for link filtering. The start origin's file was fetched once by the start
 * job and stored on the crawl row (every replica parses that same text); other origins (subdomains
 * when allowSubdomains, any host with allowExternalLinks) are fetched on first use. Bounded LRU, so memory stays flat however many
 * crawls and hosts pass through.
 */
export class RobotsCache {
  private readonly entries = new Map<string, Entry>();
  private readonly token: string;

  constructor(private readonly o: { dispatcher: Dispatcher; userAgent: string; timeoutMs: number }) {
    this.token = userAgentToken(o.userAgent);
  }

  /** Robots for `url`'s origin within a crawl; null when the crawl ignores robots.txt. */
  async forUrl(
    crawl: { crawlId: string; crawlUrl: string; robotsTxt: string | null; ignoreRobotsTxt: boolean },
    url: string,
  ): Promise<Robots | null> {
    if (crawl.ignoreRobotsTxt) return null;
    const origin = new URL(url).origin;
    const startOrigin = new URL(crawl.crawlUrl).origin;
    if (origin === startOrigin) {
      return this.cached(`crawl:${crawl.crawlId}`, Number.POSITIVE_INFINITY, async () =>
        crawl.robotsTxt === null
          ? allowAllRobots()
          : parseRobots(crawl.robotsTxt, `${startOrigin}/robots.txt`, this.token),
      );
    }
    return this.cached(`origin:${origin}`, FETCHED_TTL_MS, async () => {
      const r = await fetchRobots(origin, this.o);
      return r.robots;
    });
  }

  private async cached(key: string, ttlMs: number, load: () => Promise<Robots>): Promise<Robots> {
    const hit = this.entries.get(key);
    if (hit && hit.expires > Date.now()) {
      // Refresh recency (Map keeps insertion order: oldest first).
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.robots;
    }
    const robots = await load();
    this.entries.set(key, { robots, expires: Date.now() + ttlMs });
    while (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return robots;
  }
}
