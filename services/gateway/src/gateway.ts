import { createServer, type Server } from 'node:http';
import { queueKeyPrefix, redisTarget, searchProviderConfig } from '@wcs/config';
import {
  AccountsRepository,
  ApiKeysRepository,
  BatchesRepository,
  CrawlChangesRepository,
  CrawlsRepository,
  CreditsRepository,
  createScreenshotStore,
  DocumentsRepository,
  JobListingsRepository,
  JobWebhooksRepository,
  MonitorsRepository,
  SessionsRepository,
  type SharedDb,
  serviceDb,
  UsageRepository,
  WebhookDeliveriesRepository,
} from '@wcs/db';
import { modelSetupHint, modelSummary } from '@wcs/llm';
import type { Logger } from '@wcs/logger';
import {
  createRedisConnection,
  enqueueJobWebhooks,
  JobSecrets,
  QueueProducer,
  RedisErrorLog,
  SearchIndexMarks,
  UploadStore,
} from '@wcs/queues';
import { httpDrainer } from '@wcs/runtime';
import { createSearchProvider } from '@wcs/search';
import { createApp } from './app';
import { answerClientErrors } from './client-error';
import type { GatewayDeps } from './deps';
import type { GatewayEnv } from './env';
import { attachJobWatch } from './firecrawl/job-watch.ws';
import { BalanceHints } from './jobs/balance-hints';
import { PendingWork } from './jobs/pending-work';

export interface RunningGateway {
  server: Server;
  port: number;
  deps: GatewayDeps;
  close(): Promise<void>;
}

/** After the drain and the queues' close: how long refunds of cut requests get to finish. */
const PENDING_SETTLE_MS = 3_000;

/** What a process running other services beside the gateway hands it (the one-process mode). */
export interface GatewayShared extends SharedDb {
  /** /healthz answers 200 only once this is true (GatewayDeps.servicesStarted). */
  servicesStarted?: () => boolean;
}

/** Build the gateway's dependencies from config and start listening. Used by main.ts and tests. */
export async function startGateway(
  env: GatewayEnv,
  logger: Logger,
  shared: GatewayShared = {},
): Promise<RunningGateway> {
  const db = serviceDb(env, shared);
  // Parsed once here; every Redis user of the process gets the target and the prefix its keys carry.
  const target = redisTarget(env);
  const prefix = queueKeyPrefix(target, env.QUEUE_PREFIX);
  const producer = new QueueProducer(target, prefix, { logger });
  // The rate limiter's connection; its errors are logged like the queues' (rate-limited).
  const redis = new RedisErrorLog(logger).watch(createRedisConnection(target, 'producer'), 'rate-limit');
  // Webhook events the gateway's statements commit (a job's `started`, a cancel's `failed`) are
  // enqueued at once; the dispatcher's relay is only the fallback (Redis down).
  const onWebhookEvents = enqueueJobWebhooks(producer, logger);
  const deps: GatewayDeps = {
    logger,
    producer,
    redis,
    accounts: new AccountsRepository(db),
    apiKeys: new ApiKeysRepository(db),
    credits: new CreditsRepository(db),
    batches: new BatchesRepository(db, { onWebhookEvents }),
    crawls: new CrawlsRepository(db, { onWebhookEvents }),
    crawlChanges: new CrawlChangesRepository(db),
    jobWebhooks: new JobWebhooksRepository(db),
    monitors: new MonitorsRepository(db),
    deliveries: new WebhookDeliveriesRepository(db),
    sessions: new SessionsRepository(db),
    usage: new UsageRepository(db),
    jobs: new JobListingsRepository(db),
    search: {
      provider: createSearchProvider(searchProviderConfig(env), {
        documents: new DocumentsRepository(db),
        pending: new SearchIndexMarks(redis, prefix),
      }),
      timeoutMs: env.SEARCH_TIMEOUT_MS,
    },
    secrets: new JobSecrets(redis, prefix),
    uploads: new UploadStore(redis, prefix),
    screenshots: createScreenshotStore(env, db),
    pending: new PendingWork(),
    balances: new BalanceHints(),
    pingDatabase: async () => {
      await db.prisma.$queryRaw`SELECT 1`;
    },
    ...(shared.servicesStarted ? { servicesStarted: shared.servicesStarted } : {}),
    deployment: {
      browser: env.BROWSER_ENABLED,
      proxies: { count: env.PROXY_URLS.length, mode: env.PROXY_MODE },
      maxPageBytes: env.MAX_BODY_BYTES,
      maxDocumentBytes: env.MAX_DOCUMENT_BYTES,
      ocr: { enabled: env.OCR_ENABLED, languages: env.OCR_LANGUAGES },
      batchItemTimeoutMs: env.BATCH_ITEM_TIMEOUT_MS,
      crawlPageTimeoutMs: env.CRAWL_PAGE_TIMEOUT_MS,
      extract: modelSummary(env),
      extractSetup: modelSetupHint(env),
      searchProvider: env.SEARCH_PROVIDER,
    },
    settings: {
      bodyLimitBytes: env.BODY_LIMIT_BYTES,
      maxDocumentBytes: env.MAX_DOCUMENT_BYTES,
      adminToken: env.ADMIN_TOKEN,
      rateLimits: {
        free: env.RATE_LIMIT_FREE,
        hobby: env.RATE_LIMIT_HOBBY,
        pro: env.RATE_LIMIT_PRO,
        scale: env.RATE_LIMIT_SCALE,
        enterprise: env.RATE_LIMIT_ENTERPRISE,
      },
      rateLimitWindowSeconds: env.RATE_LIMIT_WINDOW_SECONDS,
      maxActiveKeysPerAccount: env.MAX_ACTIVE_KEYS_PER_ACCOUNT,
      scrapeTimeoutMs: env.SCRAPE_TIMEOUT_MS,
      allowPrivateTargets: env.ALLOW_PRIVATE_TARGETS,
      targetDnsTimeoutMs: env.TARGET_DNS_TIMEOUT_MS,
      publicUrl: env.PUBLIC_URL,
      trustProxy: env.TRUST_PROXY,
      dashboard: {
        sessionTtlMs: env.DASHBOARD_SESSION_TTL_HOURS * 3_600_000,
        signInAttemptsPerMinute: env.DASHBOARD_SIGNIN_ATTEMPTS_PER_MINUTE,
        throttleScope: prefix,
      },
    },
  };
  // Subscribe to scrape completions before the first request needs them.
  await producer.queueEvents('scrape').waitUntilReady();
  const app = createApp(deps);
  const server = await new Promise<Server>((resolve, reject) => {
    // Checked every second (Node's default: 30 s) so REQUEST_TIMEOUT_MS holds to within a second.
    const s = createServer({ connectionsCheckingInterval: 1_000 }, app);
    s.listen(env.PORT, env.HOST, () => resolve(s));
    s.once('error', reject);
  });
  // Bounds only the *receipt* of a request (headers + body): a client that declares a body and never
  // sends it is cut, while a long scrape (the response) is not affected.
  server.requestTimeout = env.REQUEST_TIMEOUT_MS;
  server.headersTimeout = Math.min(30_000, env.REQUEST_TIMEOUT_MS);
  answerClientErrors(server);
  // The Firecrawl SDKs' watcher(): WebSocket status streams of crawls and batches.
  const watch = attachJobWatch(server, deps);
  const drainer = httpDrainer(server);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  let closing: Promise<void> | null = null;
  return {
    server,
    port,
    deps,
    /**
     * Stop accepting, let in-flight requests (a scrape waiting on its job) finish for up to
     * SHUTDOWN_DRAIN_MS, cut the rest; then the queues (still needed while draining) and the pool.
     */
    close() {
      closing ??= (async () => {
        watch.close();
        await drainer.close({ deadlineMs: env.SHUTDOWN_DRAIN_MS, logger });
        // Fails the job waits of requests cut at the deadline; their handlers then refund.
        await producer.close();
        const unsettled = await deps.pending.settle(PENDING_SETTLE_MS);
        if (unsettled > 0) logger.warn({ unsettled }, 'closing the database with billed work unsettled');
        redis.disconnect();
        if (!shared.db) await db.close();
      })();
      return closing;
    },
  };
}
