import { crawlWorkerService, type RunningCrawlService } from '@wcs/crawl-worker';
import { createDb, SERVICE_POOL_SIZE, type SharedDb, warmUpDb } from '@wcs/db';
import { extractWorkerService, type RunningExtractWorker } from '@wcs/extract-worker';
import { type GatewayShared, gatewayService, type RunningGateway } from '@wcs/gateway';
import type { Logger } from '@wcs/logger';
import { monitorSchedulerService, type RunningMonitorScheduler } from '@wcs/monitor-scheduler';
import { createRendererFromEnv } from '@wcs/renderer';
import { DEFAULT_SHUTDOWN_DEADLINE_MS, ServiceGroup, type ServiceName } from '@wcs/runtime';
import { type RunningScrapeWorker, scrapeWorkerService } from '@wcs/scrape-worker';
import { ContentPool, contentPoolOptions, type SharedWorkerResources } from '@wcs/scraper';
import { type RunningWebhookDispatcher, webhookDispatcherService } from '@wcs/webhook-dispatcher';
import { loadOneProcessEnv } from './env';

export interface RunningOneProcess {
  gateway: RunningGateway;
  scrapeWorker: RunningScrapeWorker | null;
  crawlWorker: RunningCrawlService | null;
  extractWorker: RunningExtractWorker | null;
  monitorScheduler: RunningMonitorScheduler | null;
  webhookDispatcher: RunningWebhookDispatcher | null;
  /** What every service of the process shares (one content pool, one renderer, one Db). */
  shared: Required<SharedWorkerResources & SharedDb>;
  /** The gateway, the workers, then the shared renderer, content pool and Db. */
  close(): Promise<void>;
}

/** The services that use the database (all but the extract worker). */
const DB_SERVICES = 5;

type Started<T extends readonly unknown[]> = { -readonly [K in keyof T]: Awaited<T[K]> };

/** Every start settled (none left running unseen), then the first failure thrown. */
async function allStarted<T extends readonly unknown[]>(starts: T): Promise<Started<T>> {
  const settled = await Promise.allSettled(starts);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as Started<T>;
}

/**
 * Every service in this process (the one-process mode's main.ts, and the tests' stack with
 * STACK_MODE=one-process): the gateway and the workers as their own processes would start them,
 * except that the workers share one content pool (one set of conversion threads) and one renderer
 * (one Chromium pool) instead of one each. Each service parses its env from `source` and logs
 * under its own name. `only` starts a subset of the workers (the gateway always runs).
 */
export async function startOneProcess(opts: {
  source?: NodeJS.ProcessEnv;
  loggerFor: (service: string) => Logger;
  only?: ReadonlyArray<ServiceName>;
}): Promise<RunningOneProcess> {
  const env = loadOneProcessEnv(opts.source);
  const shared: Required<SharedWorkerResources & SharedDb> = {
    contentPool: new ContentPool(contentPoolOptions(env)),
    renderer: createRendererFromEnv(env, opts.loggerFor('renderer')),
    // One Prisma client (its query compiler is WebAssembly, instantiated per client: ~10 ms of
    // start each, and its compiled query plans) and one pool, capped at what the services' own
    // pools together were: connections open as they are needed and close when idle.
    db: createDb(env.DATABASE_URL, {
      poolSize: SERVICE_POOL_SIZE * DB_SERVICES,
      preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
    }),
  };
  // The first query's compiler and connection, made while the services wait on Redis.
  warmUpDb(shared.db);
  let everyServiceStarted = false;
  const group = new ServiceGroup<SharedWorkerResources & GatewayShared>({
    ...(opts.source ? { source: opts.source } : {}),
    loggerFor: opts.loggerFor,
    shared: { ...shared, servicesStarted: () => everyServiceStarted },
  });
  const closeShared = async () => {
    await shared.renderer.close();
    await shared.contentPool.close();
    await shared.db.close();
  };
  const runs = (service: ServiceName) => !opts.only || opts.only.includes(service);
  try {
    // Every service starts at once: the starts are mostly waits on Redis and PostgreSQL, which
    // overlap (the gateway after the workers took ~0.1 s more). The gateway listens as soon as it
    // can, but /healthz is 503 until every start has resolved (servicesStarted). Its start is
    // called last so that it closes first (ServiceGroup: reverse call order), its drain letting
    // requests in flight finish while the workers still run their jobs.
    const [scrapeWorker, crawlWorker, extractWorker, monitorScheduler, webhookDispatcher, gateway] =
      await allStarted([
        runs('scrape-worker') ? group.start(scrapeWorkerService) : null,
        runs('crawl-worker') ? group.start(crawlWorkerService) : null,
        runs('extract-worker') ? group.start(extractWorkerService) : null,
        runs('monitor-scheduler') ? group.start(monitorSchedulerService) : null,
        runs('webhook-dispatcher') ? group.start(webhookDispatcherService) : null,
        group.start(gatewayService),
      ] as const);
    everyServiceStarted = true;
    // Once everything runs: the warm-up's code loading would otherwise share the cores with the start.
    shared.contentPool.warmUpIfWanted();
    let closing: Promise<void> | undefined;
    return {
      gateway,
      scrapeWorker,
      crawlWorker,
      extractWorker,
      monitorScheduler,
      webhookDispatcher,
      shared,
      close() {
        closing ??= group.close().finally(closeShared);
        return closing;
      },
    };
  } catch (err) {
    await group.close().catch(() => undefined);
    await closeShared().catch(() => undefined);
    throw err;
  }
}

/**
 * The process's shutdown deadline: the gateway's (its drain is the longest step; the workers close
 * their jobs within the same default the multi-process stack gives each).
 */
export function oneProcessShutdownDeadlineMs(source?: NodeJS.ProcessEnv): number {
  return gatewayService.shutdownDeadlineMs?.(gatewayService.loadEnv(source)) ?? DEFAULT_SHUTDOWN_DEADLINE_MS;
}
