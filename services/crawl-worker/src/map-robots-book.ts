import { fetchRobots, type Robots } from '@wcs/discovery';
import type { Dispatcher } from '@wcs/net';

export interface RobotsBookDeps {
  dispatcher: Dispatcher;
  userAgent: string;
  /** Distinct origins whose robots.txt one map reads; URLs of further origins are kept. */
  maxOrigins: number;
  logger: { debug(o: object, m?: string): void };
}

/** Origin of a resolved URL by string slicing: no URL parse per URL on 100k-URL maps. */
export function originOf(normalized: string): string {
  const slash = normalized.indexOf('/', normalized.indexOf('://') + 3);
  return slash === -1 ? normalized : normalized.slice(0, slash);
}

/**
 * robots.txt per origin, fetched once per map (under the map's signal and remaining time);
 * origins beyond the cap are not checked. `allows` is synchronous and only knows loaded origins.
 */
export class RobotsBook {
  private readonly byOrigin = new Map<string, Promise<Robots>>();
  private readonly loaded = new Map<string, Robots>();

  constructor(
    private readonly deps: RobotsBookDeps,
    private readonly signal: AbortSignal,
    private readonly remaining: () => number,
  ) {}

  load(origin: string): Promise<Robots> | null {
    const known = this.byOrigin.get(origin);
    if (known) return known;
    if (this.byOrigin.size >= this.deps.maxOrigins) return null;
    const p = fetchRobots(origin, {
      dispatcher: this.deps.dispatcher,
      userAgent: this.deps.userAgent,
      timeoutMs: this.remaining(),
      signal: this.signal,
    }).then((r) => {
      if (r.error) this.deps.logger.debug({ origin, error: r.error }, 'robots.txt unreadable; allowing all');
      if (r.robots.ignoredRules) {
        this.deps.logger.debug(
          { origin, ignored: r.robots.ignoredRules },
          'robots.txt: wildcard rules capped',
        );
      }
      this.loaded.set(origin, r.robots);
      return r.robots;
    });
    this.byOrigin.set(origin, p);
    return p;
  }

  /** Fetch the robots.txt of every origin given (bounded by the cap). */
  async loadAll(origins: Iterable<string>): Promise<void> {
    const pending: Array<Promise<Robots>> = [];
    for (const o of origins) {
      const p = this.load(o);
      if (p) pending.push(p);
    }
    await Promise.all(pending);
  }

  /** Robots verdict for a URL whose origin was loaded; unknown origins are allowed. */
  allows(url: string): boolean {
    return this.loaded.get(originOf(url))?.isAllowed(url) ?? true;
  }
}
