import { randomUUID } from 'node:crypto';
import { loadEnv } from '@wcs/config';
import {
  loadCrawlWorkerEnv,
  loadMapWorkerEnv,
  type RunningCrawlWorker,
  type RunningMapWorker,
  startCrawlWorker,
  startMapWorker,
} from '@wcs/crawl-worker';
import { AccountsRepository, ApiKeysRepository, CreditsRepository, createDb, type PlanId } from '@wcs/db';
import { loadExtractWorkerEnv, type RunningExtractWorker, startExtractWorker } from '@wcs/extract-worker';
import { loadGatewayEnv, type RunningGateway, startGateway } from '@wcs/gateway';
import { createLogger, type Logger } from '@wcs/logger';
import {
  loadMonitorSchedulerEnv,
  type RunningMonitorScheduler,
  startMonitorScheduler,
} from '@wcs/monitor-scheduler';
import { startOneProcess } from '@wcs/one-process';
import { loadScrapeWorkerEnv, type RunningScrapeWorker, startScrapeWorker } from '@wcs/scrape-worker';
import {
  loadWebhookDispatcherEnv,
  type RunningWebhookDispatcher,
  startWebhookDispatcher,
} from '@wcs/webhook-dispatcher';
import { z } from 'zod';
import { freePort } from '../faults/private-redis';

/** The test database/Redis come from scripts/with-stores.ts; these defaults match this machine. */
const testEnv = loadEnv(
  z.object({
    DATABASE_URL: z.string().default('postgresql://postgres@127.0.0.1:5432/wcs_test'),
    REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
    /**
     * `one-process`: startStack starts its services through the one-process mode's wiring
     * (services/one-process: one content pool and one renderer shared by the workers), as
     * `pnpm start --one-process` runs them; scripts/test.sh has a pass of e2e files with it.
     */
    STACK_MODE: z.enum(['services', 'one-process']).default('services'),
  }),
);
export const STACK_MODE = testEnv.STACK_MODE;
export const TEST_DATABASE_URL = testEnv.DATABASE_URL;
export const TEST_REDIS_URL = testEnv.REDIS_URL;

export interface Stack {
  url: string;
  gateway: RunningGateway;
  worker: RunningScrapeWorker | null;
  /** Only with `crawlWorker: true`. */
  crawlWorker: RunningCrawlWorker | null;
  /** Only with `mapWorker: true` (in production the crawl-worker process runs the map queue too). */
  mapWorker: RunningMapWorker | null;
  /** Only with `extractWorker: true`. */
  extractWorker: RunningExtractWorker | null;
  /** Only with `monitorScheduler: true`. */
  monitorScheduler: RunningMonitorScheduler | null;
  /** Only with `webhookDispatcher: true`. */
  webhookDispatcher: RunningWebhookDispatcher | null;
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Gateway + scrape worker in this process, on a queue prefix of their own (so parallel test
 * files never share jobs), against the real stores. `env` overrides any variable.
 */
export async function startStack(
  opts: {
    env?: Record<string, string>;
    worker?: boolean;
    crawlWorker?: boolean;
    mapWorker?: boolean;
    extractWorker?: boolean;
    monitorScheduler?: boolean;
    webhookDispatcher?: boolean;
  } = {},
): Promise<Stack> {
  const env: Record<string, string> = {
    DATABASE_URL: TEST_DATABASE_URL,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: `t-${randomUUID().slice(0, 8)}`,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ALLOW_PRIVATE_TARGETS: 'true',
    ADMIN_TOKEN: 'test-admin-token-0123456789',
    RATE_LIMIT_FREE: '1000',
    RATE_LIMIT_HOBBY: '1000',
    BROWSER_MAX_PAGES: '2',
    // Hundreds of stacks per suite: warming each one's threads would only load the machine.
    CONTENT_POOL_WARM_UP: 'false',
    RECONCILE_INTERVAL_MS: '500',
    // Tests share one database: keep other files' reconcilers away from this file's items.
    RECONCILE_MIN_AGE_MS: '600000',
    CRAWL_RECONCILE_MIN_AGE_MS: '600000',
    CRAWL_RECONCILE_INTERVAL_MS: '500',
    ...opts.env,
  };
  const logger = createLogger({ service: 'test', level: env.LOG_LEVEL ?? 'silent' });
  if (STACK_MODE === 'one-process') return startOneProcessStack(opts, env, logger);
  const gateway = await startGateway(loadGatewayEnv(env), logger);
  // Screenshot URLs name the gateway the workers' documents point to (its port is known only now).
  env.PUBLIC_URL ??= `http://127.0.0.1:${gateway.port}`;
  const worker = opts.worker === false ? null : await startScrapeWorker(loadScrapeWorkerEnv(env), logger);
  const crawlWorker = opts.crawlWorker ? await startCrawlWorker(loadCrawlWorkerEnv(env), logger) : null;
  const mapWorker = opts.mapWorker ? await startMapWorker(loadMapWorkerEnv(env), logger) : null;
  const extractWorker = opts.extractWorker
    ? await startExtractWorker(loadExtractWorkerEnv(env), logger)
    : null;
  const monitorScheduler = opts.monitorScheduler
    ? await startMonitorScheduler(loadMonitorSchedulerEnv(env), logger)
    : null;
  const webhookDispatcher = opts.webhookDispatcher
    ? await startWebhookDispatcher(loadWebhookDispatcherEnv(env), logger)
    : null;
  const stack: Stack = {
    url: `http://127.0.0.1:${gateway.port}`,
    gateway,
    worker,
    crawlWorker,
    mapWorker,
    extractWorker,
    monitorScheduler,
    webhookDispatcher,
    env,
    async close() {
      // The fields, not the ones started here: a test may have restarted a service in its place.
      await stack.webhookDispatcher?.close();
      await stack.monitorScheduler?.close();
      await stack.extractWorker?.close();
      await stack.mapWorker?.close();
      await stack.crawlWorker?.close();
      await stack.worker?.close();
      await stack.gateway.close();
    },
  };
  return stack;
}

type StackOptions = NonNullable<Parameters<typeof startStack>[0]>;

/** A close that runs once however often it is called (a test may close a service itself). */
function closeOnce<T extends { close(): Promise<void> }>(running: T): T {
  const close = running.close.bind(running);
  let closing: Promise<void> | undefined;
  running.close = () => {
    closing ??= close();
    return closing;
  };
  return running;
}

/**
 * startStack with STACK_MODE=one-process: the services asked for, started by the one-process
 * mode's own function (the map worker comes with the crawl worker, as in its process), mapped onto
 * the Stack's fields. A service a test replaces in a field is closed through that field.
 */
async function startOneProcessStack(
  opts: StackOptions,
  env: Record<string, string>,
  logger: Logger,
): Promise<Stack> {
  const only = [
    ...(opts.worker === false ? [] : (['scrape-worker'] as const)),
    ...(opts.crawlWorker || opts.mapWorker ? (['crawl-worker'] as const) : []),
    ...(opts.extractWorker ? (['extract-worker'] as const) : []),
    ...(opts.monitorScheduler ? (['monitor-scheduler'] as const) : []),
    ...(opts.webhookDispatcher ? (['webhook-dispatcher'] as const) : []),
  ];
  // The gateway starts beside the workers there, and screenshot URLs name the gateway the workers
  // documents point to: its port is chosen first.
  if (env.PORT === '0') env.PORT = String(await freePort());
  env.PUBLIC_URL ??= `http://127.0.0.1:${env.PORT}`;
  const running = await startOneProcess({ source: env, loggerFor: () => logger, only });
  const crawl = running.crawlWorker;
  if (crawl) {
    closeOnce(crawl.crawl);
    closeOnce(crawl.map);
  }
  const started = {
    gateway: closeOnce(running.gateway),
    worker: running.scrapeWorker && closeOnce(running.scrapeWorker),
    crawlWorker: opts.crawlWorker && crawl ? crawl.crawl : null,
    mapWorker: opts.mapWorker && crawl ? crawl.map : null,
    extractWorker: running.extractWorker && closeOnce(running.extractWorker),
    monitorScheduler: running.monitorScheduler && closeOnce(running.monitorScheduler),
    webhookDispatcher: running.webhookDispatcher && closeOnce(running.webhookDispatcher),
  };
  const stack: Stack = {
    url: `http://127.0.0.1:${running.gateway.port}`,
    ...started,
    env,
    async close() {
      // Services a test started in a field's place first, then the process's own in reverse order.
      const fields = [
        'webhookDispatcher',
        'monitorScheduler',
        'extractWorker',
        'mapWorker',
        'crawlWorker',
        'worker',
      ] as const;
      for (const field of fields) {
        if (stack[field] !== started[field]) await stack[field]?.close();
      }
      await running.close();
    },
  };
  return stack;
}

export interface TestAccount {
  accountId: string;
  apiKey: string;
  keyId: string;
  auth: { Authorization: string };
}

/** A fresh account (own balance, own keys) so tests never collide. */
export async function createTestAccount(
  opts: { plan?: PlanId; credits?: number; databaseUrl?: string } = {},
): Promise<TestAccount> {
  const db = createDb(opts.databaseUrl ?? TEST_DATABASE_URL);
  try {
    const account = await new AccountsRepository(db).create({
      plan: opts.plan ?? 'free',
      ...(opts.credits !== undefined ? { credits: opts.credits } : {}),
    });
    const key = await new ApiKeysRepository(db).create(account.accountId);
    return {
      accountId: account.accountId,
      apiKey: key.apiKey,
      keyId: key.keyId,
      auth: { Authorization: `Bearer ${key.apiKey}` },
    };
  } finally {
    await db.close();
  }
}

/** The newest two ledger rows of an account: a charge and its refund share a reference. */
export async function lastTwoLedgerRows(
  accountId: string,
): Promise<Array<{ amount: number; reason: string; reference: string | null }>> {
  const db = createDb(TEST_DATABASE_URL);
  try {
    return (await new CreditsRepository(db).ledger(accountId, 2)).map((r) => ({
      amount: r.amount,
      reason: r.reason,
      reference: r.reference,
    }));
  } finally {
    await db.close();
  }
}

export async function balanceOf(accountId: string): Promise<number> {
  const db = createDb(TEST_DATABASE_URL);
  try {
    return await new CreditsRepository(db).balance(accountId);
  } finally {
    await db.close();
  }
}

/** Poll until `check` returns a value (not undefined) or the deadline passes. */
export async function pollUntil<T>(
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  everyMs = 200,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
}
