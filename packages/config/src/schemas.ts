import { z } from 'zod';
import { redisHaEnv } from './redis.env';
import { trustProxySetting } from './trust-proxy.env';

const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? def : v === 'true' || v === '1' || v === 'yes'));

const int = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);

/**
 * Pieces of configuration. Each service composes the ones it uses in its own `env.ts`, so it
 * parses (and can be stopped by) only its own variables.
 */

/** Every service: logging and the queues' Redis. */
export const baseEnv = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'])
    .default('development')
    .describe('`development` | `production` | `test`'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('pino level; API keys and tokens are redacted'),
  /** `auto`: pino-pretty when stdout is a terminal, JSON lines otherwise (pipes, containers). */
  LOG_FORMAT: z
    .enum(['auto', 'json', 'pretty'])
    .default('auto')
    .describe(
      '`auto`: readable lines (pino-pretty) when stdout is a terminal, JSON lines otherwise; `json`, `pretty` force one',
    ),
  REDIS_URL: z
    .string()
    .min(1)
    .default('redis://127.0.0.1:6379')
    .describe(
      'Redis; `bash scripts/run.sh` finds or starts one when unset. With REDIS_SENTINELS or REDIS_CLUSTER_NODES only its password, db and TLS (`rediss:`) are used',
    ),
  ...redisHaEnv.shape,
  /** Prefix for every BullMQ key, so several deployments/tests can share one Redis. */
  QUEUE_PREFIX: z
    .string()
    .min(1)
    .default('wcs')
    .describe('BullMQ key prefix (several deployments can share a Redis)'),
});

/** Services that use PostgreSQL (all but the extract-worker). */
export const databaseEnv = z.object({
  DATABASE_URL: z
    .string({ error: 'is required (postgresql://user@host:5432/db)' })
    .min(1, 'is required')
    .describe(
      'PostgreSQL (postgresql://user@host:5432/db); `bash scripts/run.sh` finds or starts one when unset',
    ),
  /**
   * Undefined when unset: the database package then decides from DATABASE_URL (`pgbouncer=true`
   * turns them off), so one URL carries both Prisma's setting and ours.
   */
  DATABASE_PREPARED_STATEMENTS: z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? undefined : v === 'true' || v === '1' || v === 'yes'))
    .describe(
      'named prepared statements on the hot paths; unset: on, unless DATABASE_URL has `pgbouncer=true`. `false` behind a pooler in transaction mode that cannot keep them (PgBouncer < 1.21)',
    ),
});

const PROXY_SCHEMES = new Set(['http:', 'https:', 'socks5:', 'socks5h:']);

/** Why one PROXY_URLS entry is unusable (undefined = fine); never quotes its credentials. */
function proxyEntryProblem(entry: string, n: number): string | undefined {
  let url: URL;
  try {
    // "user:pass@host" would parse with scheme "user:" and be echoed: only scheme://… counts.
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) throw new Error('not scheme://');
    url = new URL(entry);
  } catch {
    return `entry ${n} is not a URL (scheme://[user:password@]host:port)`;
  }
  if (!PROXY_SCHEMES.has(url.protocol.toLowerCase()))
    return `entry ${n} has scheme "${url.protocol.slice(0, -1).slice(0, 20)}"; use http, https, socks5 or socks5h`;
  if (!url.hostname) return `entry ${n} has no host`;
  // URL drops a scheme's default port (http://h:80 has port ''), so look at the text too.
  if (!url.port && !/^[a-z0-9]+:\/\/(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/@]*):\d+\/?$/i.test(entry))
    return `entry ${n} (${url.hostname}) has no port`;
  if ((url.pathname !== '' && url.pathname !== '/') || url.search || url.hash)
    return `entry ${n} (${url.hostname}) must not have a path, query or fragment`;
  return undefined;
}

/**
 * Upstream proxies for both engines, comma-separated, rotated per request (empty = direct):
 * `http://user:pass@host:3128,socks5://host:1080`. Checked at start; messages name the entry by
 * position and host, never its credentials.
 */
const proxyUrls = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const entries = (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    entries.forEach((entry, i) => {
      const problem = proxyEntryProblem(entry, i + 1);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
    return entries;
  });

/** Fetching pages: a worker's renderer (`createRendererFromEnv` reads all of these). */
export const renderEnv = z.object({
  ALLOW_PRIVATE_TARGETS: bool(false).describe(
    'allow scrapes of loopback/private addresses (local development, tests)',
  ),
  FETCH_TIMEOUT_MS: int(15_000, 100).describe('budget of one fetch'),
  FETCH_CONNECT_TIMEOUT_MS: int(5_000, 100).describe("budget of one fetch's connection"),
  MAX_BODY_BYTES: int(10 * 1024 * 1024, 1024).describe('largest body of one page'),
  /** Cap on a PDF/DOCX download (documents are bigger than pages); MAX_BODY_BYTES stays for text. */
  MAX_DOCUMENT_BYTES: int(50 * 1024 * 1024, 1024).describe(
    'per PDF/DOCX download (instead of `MAX_BODY_BYTES`); past it 502 target too large. Also the largest file `POST /v1/parse` takes (past it 413)',
  ),
  MAX_REDIRECTS: int(10, 0).describe('redirects followed per page'),
  BROWSER_EXECUTABLE: z
    .string()
    .default('/usr/bin/chromium')
    .describe("the Chromium binary of each worker's pool"),
  BROWSER_MAX_PAGES: int(4, 1).describe("pages open at once in each worker's Chromium pool"),
  BROWSER_ENABLED: bool(true).describe('Chromium pool of each worker: on or off'),
  /** Decoded bytes one browser render may receive in total; 0 = 4 × MAX_BODY_BYTES. */
  BROWSER_MAX_PAGE_BYTES: int(0, 0).describe(
    'decoded bytes one browser render may receive in all (frames, scripts, XHR, workers); `0` = 4 × `MAX_BODY_BYTES`',
  ),
  /** RSS ceiling of one Chromium renderer process (MiB): past it the renderer is killed (413). */
  BROWSER_MAX_RENDERER_MB: int(1024, 128).describe(
    'a renderer process over this RSS is killed; that render answers 502 target too large',
  ),
  /** Close an unused Chromium after this many ms (an idle worker runs no browser); 0 = never. */
  BROWSER_IDLE_CLOSE_MS: int(60_000, 0).describe(
    'Chromium starts on the first page that needs it and closes after this long unused; `0` = never',
  ),
  /** Longest wait for a challenge page (script, cookie, reload) to clear itself in the browser. */
  BROWSER_CHALLENGE_WAIT_MS: int(15_000, 0).describe(
    "longest wait for a challenge page (script, cookie, reload) to clear itself in the browser; only on the fetch ladder's escalation path, always within the request's `timeout`",
  ),
  USER_AGENT: z
    .string()
    .default('Mozilla/5.0 (compatible; WebContentService/0.1; +https://example.invalid/bot)')
    .describe('User-Agent of every fetch (pages, robots.txt, sitemaps, webhooks)'),
  PROXY_URLS: proxyUrls.describe(
    'upstream proxies (http, https, socks5, with credentials), comma-separated, rotated per request',
  ),
  /** What a request that names no `proxy` gets when PROXY_URLS is set. */
  PROXY_MODE: z
    .enum(['auto', 'always'])
    .default('auto')
    .describe(
      'with `PROXY_URLS`, for requests that name no `proxy`: `auto` = direct first, through the next proxy only when a wall still stands (the fetch ladder); `always` = every request through the next proxy (a deployment without direct egress)',
    ),
});

/**
 * BullMQ workers (`workerDefiner` of @wcs/queues). WORKER_CONCURRENCY is the jobs per queue of
 * the scrape-worker, crawl-worker, monitor-scheduler and webhook-dispatcher; the extract and map
 * workers have their own (EXTRACT_WORKER_CONCURRENCY, MAP_WORKER_CONCURRENCY) and omit it.
 */
export const workerEnv = z.object({
  WORKER_CONCURRENCY: int(8, 1).describe('jobs per worker process and queue'),
  /** BullMQ lock duration: a job whose worker died is picked up again after about this long. */
  WORKER_LOCK_MS: int(30_000, 1000).describe(
    "BullMQ job lock: a dead worker's job is retried after about this long",
  ),
  WORKER_STALLED_INTERVAL_MS: int(15_000, 500).describe(
    'how often BullMQ looks for jobs whose lock ran out (dead workers)',
  ),
});

export const gatewayEnv = z.object({
  PORT: int(3002, 0).describe('port the gateway listens on'),
  HOST: z.string().default('0.0.0.0').describe('address the gateway listens on'),
  // Empty means unset (docker compose passes `${ADMIN_TOKEN:-}`): admin routes are then off.
  ADMIN_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .pipe(z.string().min(16, 'must be at least 16 characters').optional())
    .describe('enables admin routes'),
  BODY_LIMIT_BYTES: int(1024 * 1024, 1024).describe('largest request body'),
  /** Time to receive a whole request (headers and body); slower clients get 408. Not the response. */
  REQUEST_TIMEOUT_MS: int(30_000, 1000).describe(
    'gateway: time to receive a whole request (headers + body), else 408',
  ),
  /** Requests per window per account (all its keys together), by plan. */
  RATE_LIMIT_FREE: int(20, 1).describe('requests per account (all its keys) and window on the `free` plan'),
  RATE_LIMIT_HOBBY: int(100, 1).describe(
    'requests per account (all its keys) and window on the `hobby` plan',
  ),
  RATE_LIMIT_PRO: int(500, 1).describe('requests per account (all its keys) and window on the `pro` plan'),
  RATE_LIMIT_SCALE: int(2000, 1).describe(
    'requests per account (all its keys) and window on the `scale` plan',
  ),
  RATE_LIMIT_ENTERPRISE: int(10_000, 1).describe(
    'requests per account (all its keys) and window on the `enterprise` plan',
  ),
  RATE_LIMIT_WINDOW_SECONDS: int(60, 1).describe("the rate limit's window"),
  SCRAPE_TIMEOUT_MS: int(60_000, 1000).describe('default budget of `/v1/scrape`'),
  /**
   * The gateway resolves a scrape/map/extract target before charging (an unknown or private host
   * is refused without ledger rows); past this the request goes on and the worker's check decides.
   */
  TARGET_DNS_TIMEOUT_MS: int(3_000, 100).describe(
    'gateway: its lookup of a scrape/map/extract target before charging; slower = left to the worker',
  ),
  /** On shutdown, in-flight requests get this long to finish before their sockets are cut. */
  SHUTDOWN_DRAIN_MS: int(15_000, 0).describe(
    'gateway shutdown: in-flight requests get this long, then are cut',
  ),
  /** Dashboard sign-ins last this long (absolute; signing in again starts a new one). */
  DASHBOARD_SESSION_TTL_HOURS: int(12, 1).describe('gateway: how long a dashboard sign-in lasts'),
  /** Failed dashboard sign-ins allowed per client address and minute; more are 429. */
  DASHBOARD_SIGNIN_ATTEMPTS_PER_MINUTE: int(10, 1).describe(
    'gateway: failed dashboard sign-ins per client address and minute, then 429 for wrong keys',
  ),
  /** Proxies whose X-Forwarded-* headers count (Express `trust proxy`); default none. */
  TRUST_PROXY: trustProxySetting.describe(
    'gateway: proxies whose `X-Forwarded-For/-Proto/-Host` count (Express `trust proxy`: `true`, a hop count, or addresses/subnets such as `loopback, 10.0.0.0/8`)',
  ),
});

export { bool as envBool, int as envInt };
