import type { PageStoreEnv } from '@wcs/config';
import type { PageCacheRepository, PageHistoryRepository, ScreenshotsRepository } from '@wcs/db';
import type { Logger } from '@wcs/logger';

export interface RetentionSweepDeps {
  screenshots: Pick<ScreenshotsRepository, 'purgeExpired'>;
  pageCache: Pick<PageCacheRepository, 'purgeOlderThan'>;
  /** The `changeTracking` history; absent in tests that sweep the other stores only. */
  pageHistory?: Pick<PageHistoryRepository, 'purgeOlderThan'>;
  env: Pick<PageStoreEnv, 'RETENTION_SWEEP_MS' | 'PAGE_CACHE_TTL_HOURS'> &
    Partial<Pick<PageStoreEnv, 'CHANGE_TRACKING_RETENTION_DAYS'>>;
  logger: Logger;
  /** Delay of the first pass (default: the interval, at most 30 s, so a restart catches up soon). */
  firstDelayMs?: number;
}

/** Rows purged per store, -1 for a store that failed. */
export interface SweepCounts {
  screenshots: number;
  pages: number;
  history: number;
}

export interface RetentionSweep {
  /** One pass now (also what the timer runs): rows purged per store, -1 for a store that failed. */
  runOnce(): Promise<SweepCounts>;
  /** Stop the timer and wait for a pass in progress. */
  close(): Promise<void>;
}

/**
 * Every RETENTION_SWEEP_MS, purge expired screenshots (rows and bucket objects) and cached pages
 * fetched more than PAGE_CACHE_TTL_HOURS ago. Every scrape worker runs one: the purges are plain
 * DELETE … WHERE, so replicas sweeping at once only repeat idempotent deletes. The timer is
 * unref'd (it never keeps a process alive) and passes never overlap.
 */
export function startRetentionSweep(deps: RetentionSweepDeps): RetentionSweep {
  const intervalMs = deps.env.RETENTION_SWEEP_MS;
  const cacheTtlMs = deps.env.PAGE_CACHE_TTL_HOURS * 3_600_000;
  const historyMs = (deps.env.CHANGE_TRACKING_RETENTION_DAYS ?? 30) * 86_400_000;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let closed = false;

  async function pass(): Promise<SweepCounts> {
    const now = new Date();
    // The stores fail apart: a bucket that is down must not keep the page cache from shrinking.
    const [screenshots, pages, history] = await Promise.all([
      deps.screenshots
        .purgeExpired(now, {
          onError: (err) => deps.logger.warn({ err }, 'retention sweep: a screenshot object was not deleted'),
        })
        .catch((err: unknown) => {
          deps.logger.warn({ err }, 'retention sweep: purging screenshots failed');
          return -1;
        }),
      deps.pageCache.purgeOlderThan(new Date(now.getTime() - cacheTtlMs)).catch((err: unknown) => {
        deps.logger.warn({ err }, 'retention sweep: purging the page cache failed');
        return -1;
      }),
      (deps.pageHistory?.purgeOlderThan(new Date(now.getTime() - historyMs)) ?? Promise.resolve(0)).catch(
        (err: unknown) => {
          deps.logger.warn({ err }, 'retention sweep: purging the change-tracking history failed');
          return -1;
        },
      ),
    ]);
    if (screenshots > 0 || pages > 0 || history > 0) {
      deps.logger.info(
        { screenshots, pages, history },
        'retention sweep purged expired screenshots, cached pages and page history',
      );
    } else {
      deps.logger.debug({ screenshots, pages, history }, 'retention sweep: nothing to purge');
    }
    return { screenshots, pages, history };
  }

  function runOnce(): Promise<SweepCounts> {
    const p = (running ?? Promise.resolve()).catch(() => undefined).then(pass);
    const tracked = p.finally(() => {
      if (running === tracked) running = null;
    });
    running = tracked;
    return p;
  }

  function schedule(delayMs: number): void {
    if (closed) return;
    timer = setTimeout(() => {
      timer = null;
      void runOnce()
        .catch((err: unknown) => deps.logger.warn({ err }, 'retention sweep failed'))
        .finally(() => schedule(intervalMs));
    }, delayMs);
    timer.unref();
  }

  schedule(deps.firstDelayMs ?? Math.min(intervalMs, 30_000));

  return {
    runOnce,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}
