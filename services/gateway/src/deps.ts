import type {
  AccountsRepository,
  ApiKeysRepository,
  BatchesRepository,
  CrawlsRepository,
  CreditsRepository,
  JobListingsRepository,
  JobWebhooksRepository,
  MonitorsRepository,
  PlanId,
  ScreenshotsRepository,
  SessionsRepository,
  UsageRepository,
} from '@wcs/db';
import type { Logger } from '@wcs/logger';
import type { AddressCache } from '@wcs/net';
import type { JobSecrets, QueueProducer } from '@wcs/queues';
import type { SearchProvider } from '@wcs/search';
import type { Redis } from 'ioredis';
import type { PendingWork } from './jobs/pending-work';

/** Everything the HTTP layer needs, wired in main.ts (or by tests) — no module singletons. */
export interface GatewayDeps {
  logger: Logger;
  producer: QueueProducer;
  /** Fail-fast connection for rate limiting and health checks. */
  redis: Redis;
  accounts: AccountsRepository;
  apiKeys: ApiKeysRepository;
  credits: CreditsRepository;
  batches: BatchesRepository;
  crawls: CrawlsRepository;
  monitors: MonitorsRepository;
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
  /** Screenshots taken by scrapes, served at /v1/screenshots/<token>.png, or by id under the key. */
  screenshots: Pick<ScreenshotsRepository, 'open' | 'openByToken'>;
  /** Seals the secret page options (headers, actions) of interactive jobs (job-secrets.ts). */
  secrets: JobSecrets;
  /** Billed work in flight (charge … refund); shutdown lets it settle before closing the database. */
  pending: PendingWork;
  settings: GatewaySettings;
  /** Recent DNS answers for the targets' check before a charge; createApp makes one when absent. */
  targetAddresses?: AddressCache;
}

export interface GatewaySettings {
  bodyLimitBytes: number;
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

/** What auth middleware puts on the request. */
export interface AuthContext {
  accountId: string;
  keyId: string;
  plan: PlanId;
}
