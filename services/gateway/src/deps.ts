import type {
  AccountsRepository,
  ApiKeysRepository,
  BatchesRepository,
  CrawlChangesRepository,
  CrawlsRepository,
  CreditsRepository,
  JobListingsRepository,
  JobWebhooksRepository,
  MonitorsRepository,
  PlanId,
  ScreenshotsRepository,
  SessionsRepository,
  UsageRepository,
  WebhookDeliveriesRepository,
} from '@wcs/db';
import type { Logger } from '@wcs/logger';
import type { AddressCache } from '@wcs/net';
import type { JobSecrets, QueueProducer, RedisClient, UploadStore } from '@wcs/queues';
import type { SearchProvider } from '@wcs/search';
import type { BalanceHints } from './jobs/balance-hints';
import type { PendingWork } from './jobs/pending-work';

/** Everything the HTTP layer needs, wired in main.ts (or by tests) — no module singletons. */
export interface GatewayDeps {
  logger: Logger;
  producer: QueueProducer;
  /** Fail-fast connection for rate limiting and health checks. */
  redis: RedisClient;
  accounts: AccountsRepository;
  apiKeys: ApiKeysRepository;
  credits: CreditsRepository;
  batches: BatchesRepository;
  crawls: CrawlsRepository;
  /** Recrawls with change tracking: the previous crawl's pages this one did not reach. */
  crawlChanges: Pick<CrawlChangesRepository, 'removedPages'>;
  monitors: MonitorsRepository;
  /** Monitor webhooks: the account's signing secret. */
  deliveries: WebhookDeliveriesRepository;
  /** Dashboard sign-ins. */
  sessions: SessionsRepository;
  /** Usage per day and the ledger's pages (GET /v1/usage, /v1/ledger). */
  usage: UsageRepository;
  /** The account's batches and crawls and their results, one row at a time. */
  jobs: JobListingsRepository;
  /** Crawl and batch webhooks: their delivery log (GET …/webhook-deliveries). */
  jobWebhooks: Pick<JobWebhooksRepository, 'deliveries'>;
  /** POST /v1/search: the configured provider and the default time budget of a search. */
  search: { provider: SearchProvider; timeoutMs: number };
  /** Liveness of PostgreSQL for /healthz. */
  pingDatabase: () => Promise<void>;
  /**
   * Whether the services this gateway answers for have started (the one-process mode starts the
   * gateway beside its workers): /healthz is 503 until then. Absent: the gateway alone.
   */
  servicesStarted?: () => boolean;
  /** Screenshots taken by scrapes, served at /v1/screenshots/<token>.png, or by id under the key. */
  screenshots: Pick<ScreenshotsRepository, 'open' | 'openByToken'>;
  /** Seals the secret page options (headers, actions) of interactive jobs (job-secrets.ts). */
  secrets: JobSecrets;
  /** Files sent to POST /v1/parse, handed to the scrape worker beside the job (upload-store.ts). */
  uploads: UploadStore;
  /** Billed work in flight (charge … refund); shutdown lets it settle before closing the database. */
  pending: PendingWork;
  /**
   * The balances this gateway's charges last saw, per key: a job they cover starts beside its
   * charge (runChargedJob). Absent: every job waits for its charge.
   */
  balances?: BalanceHints;
  settings: GatewaySettings;
  /** The workers' configuration as GET /v1/capabilities describes it (no secrets). */
  deployment: DeploymentFacts;
  /** Recent DNS answers for the targets' check before a charge; createApp makes one when absent. */
  targetAddresses?: AddressCache;
}

export interface GatewaySettings {
  bodyLimitBytes: number;
  /** POST /v1/parse: the largest file (MAX_DOCUMENT_BYTES, as for fetched documents). */
  maxDocumentBytes: number;
  adminToken: string | undefined;
  rateLimits: Record<PlanId, number>;
  rateLimitWindowSeconds: number;
  /** POST /v1/keys past this many active keys of the account is 409. */
  maxActiveKeysPerAccount: number;
  scrapeTimeoutMs: number;
  /** URLs fetched later (monitors, webhooks) are checked against the address policy unless true. */
  allowPrivateTargets: boolean;
  /** The gateway's own DNS lookup of a target (before charging) gives up after this long. */
  targetDnsTimeoutMs: number;
  /**
   * PUBLIC_URL when set. Unset: answers put screenshot URLs on the origin the caller used
   * (`screenshot-origin.middleware.ts`).
   */
  publicUrl: string | undefined;
  /** Express `trust proxy` (TRUST_PROXY): whose X-Forwarded-* headers count. */
  trustProxy: boolean | number | string[];
  /** `throttleScope` keeps deployments sharing one Redis (QUEUE_PREFIX) apart in the sign-in throttle. */
  dashboard: { sessionTtlMs: number; signInAttemptsPerMinute: number; throttleScope: string };
}

/** What the deployment's configuration says about its workers (gateway.ts reads it from the env). */
export interface DeploymentFacts {
  browser: boolean;
  proxies: { count: number; mode: string };
  maxPageBytes: number;
  maxDocumentBytes: number;
  ocr: { enabled: boolean; languages: string };
  /** The scrape-worker's budget of one batch item (BATCH_ITEM_TIMEOUT_MS). */
  batchItemTimeoutMs: number;
  /** The crawl-worker's budget of one page (CRAWL_PAGE_TIMEOUT_MS). */
  crawlPageTimeoutMs: number;
  extract: { configured: boolean; provider: string; model: string | null };
  /** Without a model: what to set (named in the 503 MODEL_NOT_CONFIGURED of model-priced requests). */
  extractSetup: string | null;
  searchProvider: string;
}

/** What auth middleware puts on the request. */
export interface AuthContext {
  accountId: string;
  keyId: string;
  plan: PlanId;
}
