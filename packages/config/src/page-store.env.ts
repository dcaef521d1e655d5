import { z } from 'zod';
import { envInt as int } from './schemas';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const httpUrl = (example: string) =>
  z
    .string()
    .trim()
    .regex(/^https?:\/\/[^\s/]+(\/\S*)?$/i, `must be an http(s) URL, e.g. ${example}`)
    // Screenshot URLs and object URLs are built by appending paths: no trailing slash.
    .transform((v) => v.replace(/\/+$/, ''));

/** Variables that must be set when SCREENSHOT_STORAGE=s3 (named in the error when missing). */
const S3_REQUIRED = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

/**
 * Where screenshots and cached pages live and how long. The gateway serves screenshots
 * (PUBLIC_URL, the storage), the scrape worker saves them and runs the retention sweep.
 */
export const pageStoreEnvFields = z.object({
  /**
   * The gateway's external base URL, used in `data.screenshot` URLs (no trailing slash). Unset:
   * workers write http://localhost:3002 and the gateway answers with the origin the caller used.
   */
  PUBLIC_URL: optionalString
    .pipe(httpUrl('https://scrape.example.com').optional())
    .describe(
      "the gateway's external base URL, used in screenshot URLs; unset: the origin each caller used (webhooks: `http://localhost:3002`)",
    ),
  /** A screenshot is served (and kept) this long after it was taken; its URL is valid as long. */
  SCREENSHOT_TTL_HOURS: int(24, 1).describe('how long screenshots (and their URLs) are served'),
  /**
   * Signs screenshot URLs (capability URLs, served without a key); at least 32 characters, the same
   * on the gateway and the workers. Unset: a random secret kept in PostgreSQL, shared by all.
   */
  SCREENSHOT_URL_SECRET: optionalString
    .pipe(z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -base64 32)').optional())
    .describe(
      'signs screenshot URLs (≥ 32 characters, the same for the gateway and the workers); unset: a random secret stored in PostgreSQL',
    ),
  /** `postgres` keeps the PNG bytes in the database; `s3` in an S3-compatible bucket. */
  SCREENSHOT_STORAGE: z
    .enum(['postgres', 's3'])
    .default('postgres')
    .describe('where screenshots are kept: `postgres` or `s3`'),
  /** S3-compatible endpoint, path-style (MinIO, R2, Ceph, AWS), e.g. https://s3.eu-west-1.amazonaws.com. */
  S3_ENDPOINT: optionalString
    .refine((v) => v === undefined || /^https?:\/\/[^\s/]+(\/\S*)?$/i.test(v), {
      message: 'must be an http(s) URL, e.g. http://minio:9000',
    })
    .transform((v) => v?.replace(/\/+$/, ''))
    .describe('S3-compatible endpoint for screenshots (path-style; required with `s3`)'),
  S3_BUCKET: optionalString
    .refine((v) => v === undefined || /^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/.test(v), {
      message: 'must be a bucket name (letters, digits, dot, hyphen, underscore)',
    })
    .describe('bucket for screenshots (required with `s3`)'),
  /** SigV4 signing region (`auto` for R2). */
  S3_REGION: z
    .string()
    .trim()
    .min(1)
    .default('us-east-1')
    .describe('signing region of the bucket (`auto` for R2)'),
  S3_ACCESS_KEY_ID: optionalString.describe('access key id for the bucket (required with `s3`)'),
  S3_SECRET_ACCESS_KEY: optionalString.describe('secret access key for the bucket (required with `s3`)'),
  /** Prepended to `<id>.png` in object keys. */
  S3_PREFIX: z
    .string()
    .regex(
      /^(?!\/)[A-Za-z0-9._/-]*$/,
      'must be letters, digits, ".", "_", "-" and "/", not starting with "/"',
    )
    .default('screenshots/')
    .describe('prefix of the screenshot object keys in the bucket'),
  /** Cached pages older than this are purged; also the largest `maxAge` that can hit. */
  PAGE_CACHE_TTL_HOURS: int(48, 1).describe(
    'cached pages are purged after this long (the largest `maxAge` that can hit)',
  ),
  /**
   * The `changeTracking` format's history (the latest scrape per account, URL and tag) is purged
   * this long after the page was last scraped: a later scrape of it is `new` again.
   */
  CHANGE_TRACKING_RETENTION_DAYS: int(30, 1).describe(
    "the `changeTracking` format's history of a page is purged this long after its last tracked scrape",
  ),
  /** How often a scrape worker purges expired screenshots, old cached pages and old page history. */
  RETENTION_SWEEP_MS: int(600_000, 1_000).describe(
    'how often expired screenshots, cached pages and change-tracking history are purged',
  ),
});

/**
 * The cross-field rule (S3 settings present when SCREENSHOT_STORAGE=s3). `.extend(x.shape)` drops
 * refinements, so a service composing these fields adds it again:
 * `….extend(pageStoreEnvFields.shape).superRefine(checkPageStoreEnv)`.
 */
export function checkPageStoreEnv(
  env: Pick<z.infer<typeof pageStoreEnvFields>, 'SCREENSHOT_STORAGE' | (typeof S3_REQUIRED)[number]>,
  ctx: z.RefinementCtx,
): void {
  if (env.SCREENSHOT_STORAGE !== 's3') return;
  for (const name of S3_REQUIRED) {
    if (env[name] === undefined) {
      ctx.addIssue({ code: 'custom', path: [name], message: 'is required when SCREENSHOT_STORAGE=s3' });
    }
  }
}

/** The fields with their rule, for a service (or test) that parses them on their own. */
export const pageStoreEnv = pageStoreEnvFields.superRefine(checkPageStoreEnv);

export type PageStoreEnv = z.infer<typeof pageStoreEnv>;
