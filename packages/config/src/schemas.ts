import { z } from 'zod';
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
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `auto`: pino-pretty when stdout is a terminal, JSON lines otherwise (pipes, containers). */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  REDIS_URL: z.string().min(1).default('redis://127.0.0.1:6379'),
  /** Prefix for every BullMQ key, so several deployments/tests can share one Redis. */
  QUEUE_PREFIX: z.string().min(1).default('wcs'),
});

/** Services that use PostgreSQL (all but the extract-worker). */
export const databaseEnv = z.object({
  DATABASE_URL: z.string({ error: 'is required (postgresql://user@host:5432/db)' }).min(1, 'is required'),
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
  ALLOW_PRIVATE_TARGETS: bool(false),
  FETCH_TIMEOUT_MS: int(15_000, 100),
  FETCH_CONNECT_TIMEOUT_MS: int(5_000, 100),
  MAX_BODY_BYTES: int(10 * 1024 * 1024, 1024),
  /** Cap on a PDF/DOCX download (documents are bigger than pages); MAX_BODY_BYTES stays for text. */
  MAX_DOCUMENT_BYTES: int(50 * 1024 * 1024, 1024),
  MAX_REDIRECTS: int(10, 0),
  BROWSER_EXECUTABLE: z.string().default('/usr/bin/chromium'),
  BROWSER_MAX_PAGES: int(4, 1),
  BROWSER_ENABLED: bool(true),
  /** Decoded bytes one browser render may receive in total; 0 = 4 × MAX_BODY_BYTES. */
  BROWSER_MAX_PAGE_BYTES: int(0, 0),
  /** RSS ceiling of one Chromium renderer process (MiB): past it the renderer is killed (413). */
  BROWSER_MAX_RENDERER_MB: int(1024, 128),
  /** Close an unused Chromium after this many ms (an idle worker runs no browser); 0 = never. */
  BROWSER_IDLE_CLOSE_MS: int(60_000, 0),
  /** Longest wait for a challenge page (script, cookie, reload) to clear itself in the browser. */
  BROWSER_CHALLENGE_WAIT_MS: int(15_000, 0),
  USER_AGENT: z
    .string()
    .default('Mozilla/5.0 (compatible; WebContentService/0.1; +https://example.invalid/bot)'),
  PROXY_URLS: proxyUrls,
});

/**
 * BullMQ workers (`workerDefiner` of @wcs/queues). WORKER_CONCURRENCY is the jobs per queue of
 * the scrape-worker, crawl-worker, monitor-scheduler and webhook-dispatcher; the extract and map
 * workers have their own (EXTRACT_WORKER_CONCURRENCY, MAP_WORKER_CONCURRENCY) and omit it.
 */
export const workerEnv = z.object({
  WORKER_CONCURRENCY: int(8, 1),
  /** BullMQ lock duration: a job whose worker died is picked up again after about this long. */
  WORKER_LOCK_MS: int(30_000, 1000),
  WORKER_STALLED_INTERVAL_MS: int(15_000, 500),
});

export const gatewayEnv = z.object({
  PORT: int(3002, 0),
  HOST: z.string().default('0.0.0.0'),
  // Empty means unset (docker compose passes `${ADMIN_TOKEN:-}`): admin routes are then off.
  ADMIN_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  BODY_LIMIT_BYTES: int(1024 * 1024, 1024),
  /** Time to receive a whole request (headers and body); slower clients get 408. Not the response. */
  REQUEST_TIMEOUT_MS: int(30_000, 1000),
  /** Requests per window per account (all its keys together), by plan. */
  RATE_LIMIT_FREE: int(20, 1),
  RATE_LIMIT_HOBBY: int(100, 1),
  RATE_LIMIT_PRO: int(500, 1),
  RATE_LIMIT_SCALE: int(2000, 1),
  RATE_LIMIT_ENTERPRISE: int(10_000, 1),
  RATE_LIMIT_WINDOW_SECONDS: int(60, 1),
  SCRAPE_TIMEOUT_MS: int(60_000, 1000),
  /**
   * The gateway resolves a scrape/map/extract target before charging (an unknown or private host
   * is refused without ledger rows); past this the request goes on and the worker's check decides.
   */
  TARGET_DNS_TIMEOUT_MS: int(3_000, 100),
  /** On shutdown, in-flight requests get this long to finish before their sockets are cut. */
  SHUTDOWN_DRAIN_MS: int(15_000, 0),
  /** Dashboard sign-ins last this long (absolute; signing in again starts a new one). */
  DASHBOARD_SESSION_TTL_HOURS: int(12, 1),
  /** Failed dashboard sign-ins allowed per client address and minute; more are 429. */
  DASHBOARD_SIGNIN_ATTEMPTS_PER_MINUTE: int(10, 1),
  /** Proxies whose X-Forwarded-* headers count (Express `trust proxy`); default none. */
  TRUST_PROXY: trustProxySetting,
});

export { bool as envBool, int as envInt };
