import { createServer, type Server } from 'node:http';
import { searchProviderConfig } from '@wcs/config';
import {
  AccountsRepository,
  ApiKeysRepository,
  BatchesRepository,
  CrawlsRepository,
  CreditsRepository,
  createDb,
  createScreenshotStore,
  DocumentsRepository,
  JobListingsRepository,
  JobWebhooksRepository,
  MonitorsRepository,
  SessionsRepository,
  UsageRepository,
} from '@wcs/db';
import type { Logger } from '@wcs/logger';
import {
  createRedisConnection,
  enqueueJobWebhooks,
  JobSecrets,
  QueueProducer,
  RedisErrorLog,
  SearchIndexMarks,
} from '@wcs/queues';
import { httpDrainer } from '@wcs/runtime';
import { createSearchProvider } from '@wcs/search';
import { createApp } from './app';
import { answerClientErrors } from './client-error';
import type { GatewayDeps } from './deps';
import type { GatewayEnv } from './env';
import { PendingWork } from './jobs/pending-work';

export interface RunningGateway {
  server: Server;
  port: number;
  deps: GatewayDeps;
  close(): Promise<void>;
}

/** After the drain and the queues' close: how long refunds of cut requests get to finish. */
const PENDING_SETTLE_MS = 3_000;

/** Build the gateway's dependencies from config and start listening. Used by main.ts and tests. */
export async function startGateway(env: GatewayEnv, logger: Logger): Promise<RunningGateway> {
  const db = createDb(env.DATABASE_URL);
  const producer = new QueueProducer(env.REDIS_URL, env.QUEUE_PREFIX, { logger });
  // The rate limiter's connection; its errors are logged like the queues' (rate-limited).
  const redis = new RedisErrorLog(logger).watch(
    createRedisConnection(env.REDIS_URL, 'producer'),
    'rate-limit',
  );
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
    jobWebhooks: new JobWebhooksRepository(db),
    monitors: new MonitorsRepository(db),
    sessions: new SessionsRepository(db),
    usage: new UsageRepository(db),
    jobs: new JobListingsRepository(db),
    search: {
      provider: createSearchProvider(searchProviderConfig(env), {
        documents: new DocumentsRepository(db),
        pending: new SearchIndexMarks(redis, env.QUEUE_PREFIX),
      }),
      timeoutMs: env.SEARCH_TIMEOUT_MS,
    },
    secrets: new JobSecrets(redis, env.QUEUE_PREFIX),
    screenshots: createScreenshotStore(env, db),
    pending: new PendingWork(),
    pingDatabase: async () => {
      await db.prisma.$queryRaw`SELECT 1`;
    },
    settings: {
      bodyLimitBytes: env.BODY_LIMIT_BYTES,
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
        throttleScope: env.QUEUE_PREFIX,
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
        await drainer.close({ deadlineMs: env.SHUTDOWN_DRAIN_MS, logger });
        // Fails the job waits of requests cut at the deadline; their handlers then refund.
        await producer.close();
        const unsettled = await deps.pending.settle(PENDING_SETTLE_MS);
        if (unsettled > 0) logger.warn({ unsettled }, 'closing the database with billed work unsettled');
        redis.disconnect();
        await db.close();
      })();
      return closing;
    },
  };
}
