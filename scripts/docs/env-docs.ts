/**
 * One line of documentation per environment variable, rendered into docs/reference/configuration.md
 * by scripts/docs-reference.ts next to the default the zod schema itself gives. A variable a service
 * reads without an entry here fails the generator (and tests/src/docs-reference.test.ts).
 */
export const ENV_DOCS: ReadonlyArray<readonly [readonly string[], string]> = [
  [['PORT', 'HOST'], 'gateway address'],
  [
    ['DATABASE_URL'],
    'PostgreSQL (postgresql://user@host:5432/db); `bash scripts/run.sh` finds or starts one when unset',
  ],
  [['REDIS_URL'], 'Redis; `bash scripts/run.sh` finds or starts one when unset'],
  [['QUEUE_PREFIX'], 'BullMQ key prefix (several deployments can share a Redis)'],
  [['ALLOW_PRIVATE_TARGETS'], 'allow scrapes of loopback/private addresses (local development, tests)'],
  [['ADMIN_TOKEN'], 'enables admin routes'],
  [['LOG_LEVEL'], 'pino level; API keys and tokens are redacted'],
  [
    ['LOG_FORMAT'],
    '`auto`: readable lines (pino-pretty) when stdout is a terminal, JSON lines otherwise; `json`, `pretty` force one',
  ],
  [['BODY_LIMIT_BYTES'], 'largest request body'],
  [['SCRAPE_TIMEOUT_MS'], 'default budget of `/v1/scrape`'],
  [
    ['TARGET_DNS_TIMEOUT_MS'],
    'gateway: its lookup of a scrape/map/extract target before charging; slower = left to the worker',
  ],
  [['SHUTDOWN_DRAIN_MS'], 'gateway shutdown: in-flight requests get this long, then are cut'],
  [['REQUEST_TIMEOUT_MS'], 'gateway: time to receive a whole request (headers + body), else 408'],
  [['DASHBOARD_SESSION_TTL_HOURS'], 'gateway: how long a dashboard sign-in lasts'],
  [
    ['DASHBOARD_SIGNIN_ATTEMPTS_PER_MINUTE'],
    'gateway: failed dashboard sign-ins per client address and minute, then 429 for wrong keys',
  ],
  [
    ['RATE_LIMIT_FREE', 'RATE_LIMIT_HOBBY', 'RATE_LIMIT_PRO'],
    'requests per account (all its keys) and window, by plan',
  ],
  [['RATE_LIMIT_SCALE', 'RATE_LIMIT_ENTERPRISE'], 'requests per account (all its keys) and window, by plan'],
  [['RATE_LIMIT_WINDOW_SECONDS'], "the rate limit's window"],
  [['MAX_ACTIVE_KEYS_PER_ACCOUNT'], 'active API keys per account (gateway and CLI); one more is 409'],
  [['FETCH_TIMEOUT_MS', 'FETCH_CONNECT_TIMEOUT_MS'], 'per fetch'],
  [['MAX_BODY_BYTES', 'MAX_REDIRECTS'], 'per page'],
  [
    ['MAX_DOCUMENT_BYTES'],
    'per PDF/DOCX download (instead of `MAX_BODY_BYTES`); past it 502 target too large',
  ],
  [['USER_AGENT'], 'User-Agent of every fetch (pages, robots.txt, sitemaps, webhooks)'],
  [['BROWSER_ENABLED', 'BROWSER_EXECUTABLE', 'BROWSER_MAX_PAGES'], 'Chromium pool of each worker'],
  [
    ['BROWSER_MAX_PAGE_BYTES'],
    'decoded bytes one browser render may receive in all (frames, scripts, XHR, workers)',
  ],
  [
    ['BROWSER_MAX_RENDERER_MB'],
    'a renderer process over this RSS is killed; that render answers 502 target too large',
  ],
  [
    ['BROWSER_IDLE_CLOSE_MS'],
    'Chromium starts on the first page that needs it and closes after this long unused; `0` = never',
  ],
  [
    ['BROWSER_CHALLENGE_WAIT_MS'],
    "longest wait for a challenge page (script, cookie, reload) to clear itself in the browser; only on the fetch ladder's escalation path, always within the request's `timeout`",
  ],
  [
    ['CONTENT_POOL_THREADS', 'CONTENT_POOL_IDLE_MS'],
    'threads converting pages per process (none while idle); `0` = in-process',
  ],
  [
    ['CONTENT_TASK_TIMEOUT_MS', 'CONTENT_THREAD_HEAP_MB'],
    "one page's conversion: budget from when a thread begins it (504 timeout) and heap cap (502 target too large)",
  ],
  [
    ['CONTENT_SELECTOR_BUDGET_MS'],
    "one page's `includeTags`/`excludeTags` matching (422 selector too expensive, billed)",
  ],
  [
    ['DOCUMENT_MAX_PAGES', 'DOCUMENT_TIMEOUT_MS'],
    "PDF pages read (more: cut with a warning); one document's conversion budget",
  ],
  [
    ['DOCUMENT_MAX_INFLATED_BYTES', 'DOCUMENT_MAX_INFLATE_RATIO'],
    "one document's compressed parts (DOCX ZIP entries, PDF Flate streams) inflated in all, and per part ÷ its compressed size; past either 502 target too large",
  ],
  [['OCR_ENABLED'], "OCR of PDFs without a text layer (needs Debian's `tesseract-ocr` and `poppler-utils`)"],
  [['OCR_LANGUAGES'], 'tesseract languages, e.g. `eng+deu` (each needs its `tesseract-ocr-*` package)'],
  [['WORKER_CONCURRENCY'], 'jobs per worker process and queue'],
  [['WORKER_LOCK_MS', 'WORKER_STALLED_INTERVAL_MS'], "a dead worker's job is retried after about this long"],
  [
    ['HEALTH_PORT', 'HEALTH_HOST'],
    'workers: probe server, `GET /healthz` (200 once started; 503 while starting or shutting down), `GET /livez` (200 while the process answers); Kubernetes sets 8080',
  ],
  [['BATCH_ITEM_TIMEOUT_MS', 'BATCH_ITEM_MAX_STARTS'], 'per batch item'],
  [['RECONCILE_INTERVAL_MS', 'RECONCILE_MIN_AGE_MS'], 'batch items whose job vanished are re-enqueued'],
  [['SEARCH_PROVIDER'], '`embedded` (own pages, PostgreSQL) | `searxng` | `brave`'],
  [['SEARXNG_URL'], 'SearXNG base URL (required with `searxng`)'],
  [['BRAVE_API_KEY', 'BRAVE_BASE_URL'], 'Brave Search token (required with `brave`) and endpoint'],
  [
    ['SEARCH_PROVIDER_TIMEOUT_MS', 'SEARCH_TIMEOUT_MS'],
    'provider call; whole `/v1/search` call (provider + scraping the hits)',
  ],
  [
    ['SEARCH_INDEX_WAIT_MS'],
    'embedded search: longest wait for your pages reported but not yet indexed (read-your-writes); `0` = no wait',
  ],
  [
    ['MAP_SHALLOW_PAGES', 'MAP_CONCURRENCY'],
    'pages a map fetches for more links (depth 1), and how many at once',
  ],
  [
    ['MAP_PAGE_TIMEOUT_MS', 'MAP_SITEMAP_MAX_FILES'],
    'per page of a map; sitemap files (indexes included) one map reads',
  ],
  [
    ['MAP_WORKER_CONCURRENCY', 'MAP_ROBOTS_MAX_ORIGINS'],
    'map jobs per crawl-worker; origins (subdomains) whose robots.txt is read',
  ],
  [['EXTRACT_PROVIDER'], 'extract model API: `anthropic` | `openai` (OpenAI-compatible: Ollama, vLLM)'],
  [['EXTRACT_MODEL'], 'model name (required for `openai`)'],
  [['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'], 'key (extraction answers 503 without it) and endpoint'],
  [
    ['OPENAI_BASE_URL', 'OPENAI_API_KEY'],
    'OpenAI-compatible base incl. `/v1` (required for `openai`); optional key',
  ],
  [
    ['EXTRACT_INPUT_TOKEN_BUDGET', 'EXTRACT_MAX_TOKENS'],
    'page tokens sent to the model (chars/4); longest answer',
  ],
  [
    ['EXTRACT_MODEL_TIMEOUT_MS', 'EXTRACT_MODEL_MAX_RETRIES'],
    'per model call; retries on connection errors, 429, 5xx',
  ],
  [['EXTRACT_WORKER_CONCURRENCY'], 'extract jobs at once per extract-worker'],
  [['MONITOR_INTERVAL_SCALE'], 'multiplies monitor intervals (tests: 0.0005 → hourly ≈ 1.8 s)'],
  [
    ['MONITOR_RESUME_SWEEP_MS', 'MONITOR_CHECK_TIMEOUT_MS'],
    'paused-monitor resume sweep; budget of one check',
  ],
  [
    ['MONITOR_WEBHOOK_RECOVERY_MS'],
    'a change without a delivery attempt this long gets its webhook re-enqueued',
  ],
  [
    ['MONITOR_RECONCILE_MS'],
    'job schedulers are reconciled with PostgreSQL this often (survives Redis data loss)',
  ],
  [['WEBHOOK_TIMEOUT_MS'], 'one webhook POST (never retried)'],
  [
    ['PROXY_URLS'],
    'upstream proxies (http, https, socks5, with credentials), comma-separated, rotated per request',
  ],
  [
    ['PUBLIC_URL'],
    "the gateway's external base URL, used in screenshot URLs; unset: the origin each caller used (webhooks: `http://localhost:3002`)",
  ],
  [
    ['TRUST_PROXY'],
    'gateway: proxies whose `X-Forwarded-For/-Proto/-Host` count (Express `trust proxy`: `true`, a hop count, or addresses/subnets such as `loopback, 10.0.0.0/8`)',
  ],
  [
    ['SCREENSHOT_URL_SECRET'],
    'signs screenshot URLs (≥ 32 characters, the same for the gateway and the workers); unset: a random secret stored in PostgreSQL',
  ],
  [
    ['SCREENSHOT_TTL_HOURS', 'SCREENSHOT_STORAGE'],
    'how long screenshots (and their URLs) are served; `postgres` or `s3`',
  ],
  [
    ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_PREFIX'],
    'S3-compatible bucket for screenshots (path-style; required with `s3`)',
  ],
  [['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'], 'its credentials (required with `s3`)'],
  [
    ['PAGE_CACHE_TTL_HOURS', 'RETENTION_SWEEP_MS'],
    'cached pages are purged after this long; how often expired screenshots and copies are purged',
  ],
  [['NODE_ENV'], '`development` | `production` | `test`'],
  [['CRAWL_HOST_CONCURRENCY'], 'requests in flight per host, across all crawls and replicas'],
  [['CRAWL_DEADLINE_MS'], 'a crawl still running after this is failed (`stopReason: timeout`)'],
  [['CRAWL_PAGE_TIMEOUT_MS'], 'budget of one page'],
  [['CRAWL_PAGE_MAX_STARTS'], 'a page started this often (crashes, lost Redis) is failed'],
  [['CRAWL_MAX_LINKS_PER_PAGE'], 'links taken from one page'],
  [['CRAWL_SITEMAP_MAX_URLS'], 'sitemap URLs read at the start'],
  [['CRAWL_ROBOTS_TIMEOUT_MS'], 'robots.txt / sitemap fetch budget'],
  [['CRAWL_RECONCILE_INTERVAL_MS'], 'reconciler period'],
  [['CRAWL_RECONCILE_MIN_AGE_MS'], 'how long a page row may sit without a job before it is enqueued again'],
  [
    ['JOB_WEBHOOK_MAX_ATTEMPTS'],
    'attempts of one crawl/batch webhook event (retried on no answer, timeout, 408, 425, 429, 5xx)',
  ],
  [
    ['JOB_WEBHOOK_RETRY_DELAY_MS'],
    'first back-off between attempts of a job webhook event (doubles each time)',
  ],
  [['JOB_WEBHOOK_RELAY_INTERVAL_MS'], 'how often events whose delivery job is missing get one added'],
  [
    ['JOB_WEBHOOK_STALE_MS'],
    'a pending event untouched this long with no live job is re-enqueued (Redis restarted empty)',
  ],
];
