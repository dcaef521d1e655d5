import { z } from 'zod';
import { countryCode } from './country-code';

/**
 * Page options: how a page is fetched and what its document holds, in one schema shared
 * by every feature that fetches pages (scrape, batch items, crawl `scrapeOptions`, extract,
 * monitors) and by the job payloads and rows that carry them to the workers. Names follow the
 * closest peer (Firecrawl v2) so users carry them over unchanged.
 *
 * The options split in two parts that travel differently:
 * - `PageSecrets` (headers, cookies inside them, actions — which may `write` a password): never in
 *   a job payload in clear (`job-secrets.ts` seals them for interactive jobs; batch, crawl and
 *   monitor rows hold them only while the job lives) and never logged.
 * - `PageOptions` (everything else, `headersScope` too: where headers go is no secret): plain data
 *   in payloads and rows.
 */

/** Every format a document can hold. `screenshot@fullPage` is a screenshot of the whole page. */
export const pageFormat = z.enum([
  'markdown',
  'html',
  'rawHtml',
  'text',
  'json',
  'links',
  'images',
  'screenshot',
  'screenshot@fullPage',
  'changeTracking',
  /** A short summary of the main content by the extract model (priced like an extract: docs/api.md). */
  'summary',
]);
export type PageFormat = z.infer<typeof pageFormat>;

/**
 * `changeTrackingOptions` (Firecrawl v2 names): how the `changeTracking` format compares the page
 * with the account's previous scrape of it. `tag` starts a separate history; `git-diff` adds
 * `changeTracking.diff`; `json` (with `schema` / `prompt`) is the extracted values before and after.
 */
export const MAX_CHANGE_TAG_CHARS = 128;
export const changeTrackingOptions = z.strictObject({
  modes: z
    .array(z.enum(['git-diff', 'json']))
    .max(2)
    .refine((m) => new Set(m).size === m.length, { message: 'lists a mode twice' })
    .optional(),
  schema: z.record(z.string(), z.json(), { error: 'must be a JSON Schema object' }).optional(),
  prompt: z.string().min(1).max(10_000).optional(),
  tag: z
    .string()
    .min(1)
    .max(MAX_CHANGE_TAG_CHARS)
    .regex(/^[\x20-\x7e]+$/, 'is visible ASCII')
    .optional(),
});
export type ChangeTrackingOptions = z.infer<typeof changeTrackingOptions>;

export const MAX_ACTIONS = 50;
/** Sum of every `wait` action's milliseconds (selector waits count their own timeout). */
export const MAX_ACTIONS_WAIT_MS = 60_000;
/** How long an action waits for its selector before it fails (bounded by the render budget too). */
export const ACTION_SELECTOR_TIMEOUT_MS = 5_000;
export const MAX_HEADERS = 50;
/** Bytes of all header names and values together (a browser sends ~8 KiB at most per request). */
export const MAX_HEADER_BYTES = 16 * 1024;
export const MAX_TAG_SELECTORS = 50;
export const MAX_SELECTOR_CHARS = 500;
export const MAX_SCRIPT_CHARS = 100_000;
export const MAX_WRITE_CHARS = 10_000;

const selector = z.string().min(1).max(MAX_SELECTOR_CHARS);

export const pageAction = z.discriminatedUnion('type', [
  z
    .strictObject({
      type: z.literal('wait'),
      milliseconds: z.number().int().min(1).max(MAX_ACTIONS_WAIT_MS).optional(),
      selector: selector.optional(),
    })
    .refine((a) => (a.milliseconds === undefined) !== (a.selector === undefined), {
      message: 'needs exactly one of milliseconds or selector',
    }),
  z.strictObject({ type: z.literal('click'), selector, all: z.boolean().default(false) }),
  z.strictObject({ type: z.literal('write'), text: z.string().max(MAX_WRITE_CHARS) }),
  z.strictObject({ type: z.literal('press'), key: z.string().min(1).max(50) }),
  z.strictObject({
    type: z.literal('scroll'),
    direction: z.enum(['up', 'down']).default('down'),
    selector: selector.optional(),
  }),
  z.strictObject({ type: z.literal('executeJavascript'), script: z.string().min(1).max(MAX_SCRIPT_CHARS) }),
  z.strictObject({ type: z.literal('screenshot'), fullPage: z.boolean().default(false) }),
]);
export type PageAction = z.infer<typeof pageAction>;

export const pageActions = z
  .array(pageAction)
  .max(MAX_ACTIONS, `at most ${MAX_ACTIONS} actions`)
  .refine(
    (actions) =>
      actions.reduce((ms, a) => ms + (a.type === 'wait' ? (a.milliseconds ?? 0) : 0), 0) <=
      MAX_ACTIONS_WAIT_MS,
    { message: `the wait actions add up to more than ${MAX_ACTIONS_WAIT_MS} ms` },
  );

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/**
 * Headers the engines own (framing, connection management, the proxy hop): neither engine can send
 * a caller's value for them the same way (the browser refuses some, a proxy would take others as
 * its own credentials), so they are refused instead of being dropped or sent differently.
 */
const FORBIDDEN_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'trailer',
]);
const forbiddenHeader = (name: string) => {
  const n = name.toLowerCase();
  return FORBIDDEN_HEADERS.has(n) || n.startsWith('proxy-');
};
/** Visible ASCII, space and tab: the one set both engines put on the wire byte for byte. */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

export const pageHeaders = z
  .record(
    z.string(),
    z
      .string()
      .refine((v) => HEADER_VALUE.test(v), 'header values are visible ASCII (no CR, LF, NUL or non-ASCII)'),
  )
  .superRefine((h, ctx) => {
    // Names are checked here rather than as the record's key schema so the message says why.
    for (const name of Object.keys(h)) {
      if (!HEADER_NAME.test(name))
        ctx.addIssue({ code: 'custom', path: [name], message: 'is not an HTTP header name' });
      else if (forbiddenHeader(name))
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message:
            'is set by the service (Host, Content-Length, Connection, Expect, Proxy-* …), not by a request',
        });
    }
  })
  .refine((h) => Object.keys(h).length <= MAX_HEADERS, { message: `at most ${MAX_HEADERS} headers` })
  .refine((h) => Object.entries(h).reduce((n, [k, v]) => n + k.length + v.length, 0) <= MAX_HEADER_BYTES, {
    message: `headers add up to more than ${MAX_HEADER_BYTES} bytes`,
  });

export const pageLocation = z.strictObject({
  /** ISO 3166-1 alpha-2, e.g. "DE". Default "US". */
  country: countryCode('is an ISO 3166-1 alpha-2 code such as "DE"').default('US'),
  /** BCP 47 tags in preference order, e.g. ["de-DE", "en"]. Default: the country's main language. */
  languages: z
    .array(z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'are BCP 47 tags such as "de-DE"'))
    .min(1)
    .max(10)
    .optional(),
});
export type PageLocation = z.infer<typeof pageLocation>;

/**
 * The same in stored options and job payloads: any two letters, so a row written before a code
 * was refused at the request (or under another ICU version) still runs.
 */
const storedPageLocation = pageLocation.extend({
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/)
    .transform((c) => c.toUpperCase())
    .default('US'),
});

const tagSelectors = z.array(selector).max(MAX_TAG_SELECTORS);

/**
 * Where `headers` go: 'origin' (the default) only to the origin of the URL asked for — its
 * document and the page's requests to that origin, not a redirect to another origin, nor another
 * origin's scripts, frames or fetches; 'all' to every origin. Authorization and cookies stay with
 * the target's origin in both.
 */
export const headersScope = z
  .enum(['origin', 'all'])
  .describe(
    "Where `headers` go: 'origin' (default) to the requested URL's origin only; 'all' to every origin (Authorization and cookies stay with that origin)",
  );
export type HeadersScope = z.infer<typeof headersScope>;

/**
 * The request-body fields (scrape, batch, crawl `scrapeOptions`, extract, monitors). The routes
 * spread `pageOptionFields` into their strict bodies (and pick what makes sense for them).
 */
export const pageOptionFields = {
  headers: pageHeaders.optional(),
  headersScope: headersScope.optional(),
  formats: z.array(pageFormat).min(1).max(pageFormat.options.length).optional(),
  actions: pageActions.optional(),
  mobile: z.boolean().optional(),
  location: pageLocation.optional(),
  includeTags: tagSelectors.optional(),
  excludeTags: tagSelectors.optional(),
  proxy: z.enum(['none', 'default', 'auto']).optional(),
  maxAge: z
    .number()
    .int()
    .min(0)
    .max(365 * 24 * 3600 * 1000)
    .optional(),
  /** Keep the fetched page in the page cache (default true); `maxAge` is what reads it. */
  storeInCache: z.boolean().optional(),
  /** With the `changeTracking` format: modes and tag of the comparison. */
  changeTrackingOptions: changeTrackingOptions.optional(),
};

/** Features that read a page instead of returning it (extract, monitors): no formats, no cache. */
export const readPageOptionFields = {
  headers: pageOptionFields.headers,
  headersScope: pageOptionFields.headersScope,
  actions: pageOptionFields.actions,
  mobile: pageOptionFields.mobile,
  location: pageOptionFields.location,
  includeTags: pageOptionFields.includeTags,
  excludeTags: pageOptionFields.excludeTags,
  proxy: pageOptionFields.proxy,
};

/** The non-secret options, as payloads and rows carry them. */
export const pageOptions = z.strictObject({
  headersScope: pageOptionFields.headersScope,
  formats: pageOptionFields.formats,
  mobile: pageOptionFields.mobile,
  location: storedPageLocation.optional(),
  includeTags: pageOptionFields.includeTags,
  excludeTags: pageOptionFields.excludeTags,
  proxy: pageOptionFields.proxy,
  maxAge: pageOptionFields.maxAge,
  storeInCache: pageOptionFields.storeInCache,
  changeTrackingOptions: pageOptionFields.changeTrackingOptions,
});
export type PageOptions = z.infer<typeof pageOptions>;

/** The secret options: sealed in job payloads, kept in rows only while the job lives, never logged. */
export const pageSecrets = z.strictObject({
  headers: pageOptionFields.headers,
  actions: pageOptionFields.actions,
});
export type PageSecrets = z.infer<typeof pageSecrets>;

/** Split a validated body's page options into the plain and the secret part (undefined fields left out). */
export function splitPageOptions(body: Partial<PageOptions & PageSecrets>): {
  options: PageOptions;
  secrets: PageSecrets | undefined;
} {
  // The keys come from the two schemas, so a new option is declared once, not listed here again.
  const options = definedOf(body, Object.keys(pageOptions.shape)) as PageOptions;
  const secrets = definedOf(body, Object.keys(pageSecrets.shape)) as PageSecrets;
  return { options, secrets: Object.keys(secrets).length > 0 ? secrets : undefined };
}

function definedOf(o: object, keys: readonly string[]): Record<string, unknown> {
  const from = o as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
  return out;
}

/** Formats that need the browser (a screenshot). */
export function wantsScreenshot(
  formats: readonly PageFormat[] | undefined,
): 'viewport' | 'fullPage' | undefined {
  if (formats?.includes('screenshot@fullPage')) return 'fullPage';
  if (formats?.includes('screenshot')) return 'viewport';
  return undefined;
}
