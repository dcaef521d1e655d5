/**
 * Firecrawl scrape options (v2 `ScrapeOptions`, v1 `ScrapeParams`) → the native page fields of
 * `/v1/scrape`. Only a translation: every value we pass on keeps its name and place, so
 * the native body schema (`scrapeBody`, crawl's `scrapeOptions`, …) validates it and names the
 * field as the caller wrote it. What we cannot honour is a 400 naming the option, never a default.
 *
 * Used by scrape, search, crawl `scrapeOptions` and batch pages; keep the exported API stable.
 */
import { ValidationError } from '@wcs/errors';
import type { PageFormat } from '@wcs/queues';
import { z } from 'zod';
import { toPlainSchema } from './json-schema.compat';

/** Names the SDKs add to every body to label themselves; accepted and ignored. */
const clientLabels = {
  origin: z.string().optional(),
  integration: z.string().nullable().optional(),
};

/**
 * Fields shared by v1 and v2. Pass-through fields are `unknown` here on purpose: the native schema
 * checks them (same name, same place), so both APIs give the same message for the same mistake.
 */
const commonFields = {
  headers: z.unknown().optional(),
  includeTags: z.unknown().optional(),
  excludeTags: z.unknown().optional(),
  onlyMainContent: z.unknown().optional(),
  timeout: z.unknown().optional(),
  waitFor: z.unknown().optional(),
  mobile: z.unknown().optional(),
  actions: z.unknown().optional(),
  location: z.unknown().optional(),
  maxAge: z.unknown().optional(),
  storeInCache: z.unknown().optional(),
  // Checked by value in `toNativePageFields` (refused unless they match what we do).
  skipTlsVerification: z.unknown().optional(),
  removeBase64Images: z.unknown().optional(),
  blockAds: z.unknown().optional(),
  proxy: z.unknown().optional(),
  zeroDataRetention: z.unknown().optional(),
  auditMetadata: z.unknown().optional(),
  ...clientLabels,
};

/** v2 `ScrapeOptions` (the SDK's `Firecrawl` class), as an object shape to spread into bodies. */
export const firecrawlScrapeOptionsV2Fields = {
  ...commonFields,
  formats: z.array(z.unknown(), { error: 'must be an array' }).optional(),
  parsers: z.unknown().optional(),
  fastMode: z.unknown().optional(),
  useMock: z.unknown().optional(),
  minAge: z.unknown().optional(),
  lockdown: z.unknown().optional(),
  redactPII: z.unknown().optional(),
  threatProtection: z.unknown().optional(),
  profile: z.unknown().optional(),
  domainTools: z.unknown().optional(),
  toolDetail: z.unknown().optional(),
};
export const firecrawlScrapeOptionsV2 = z.strictObject(firecrawlScrapeOptionsV2Fields);
export type FirecrawlScrapeOptionsV2 = z.infer<typeof firecrawlScrapeOptionsV2>;

const llmOptions = z.strictObject({
  prompt: z.string({ error: 'must be a string' }).optional(),
  schema: z.record(z.string(), z.unknown(), { error: 'must be a JSON Schema object' }).optional(),
  systemPrompt: z.unknown().optional(),
  checkPromptInjection: z.unknown().optional(),
});

/** v1 `ScrapeParams` (the SDK's `FirecrawlAppV1`), as an object shape to spread into bodies. */
export const firecrawlScrapeOptionsV1Fields = {
  ...commonFields,
  formats: z.array(z.unknown(), { error: 'must be an array' }).optional(),
  parsePDF: z.unknown().optional(),
  jsonOptions: llmOptions.optional(),
  extract: llmOptions.optional(),
  changeTrackingOptions: z.unknown().optional(),
  agent: z.unknown().optional(),
};
export const firecrawlScrapeOptionsV1 = z.strictObject(firecrawlScrapeOptionsV1Fields);
export type FirecrawlScrapeOptionsV1 = z.infer<typeof firecrawlScrapeOptionsV1>;

/** The Firecrawl document fields a request asked for (metadata always comes). */
export type FirecrawlFormat =
  | 'markdown'
  | 'html'
  | 'rawHtml'
  | 'links'
  | 'images'
  | 'screenshot'
  | 'json'
  | 'changeTracking'
  | 'summary';

/** A `json` format: an LLM extraction on the same page (native `/v1/extract`). */
export interface JsonExtraction {
  /** The caller's JSON Schema converted to the native plain schema. */
  schema?: Record<string, unknown>;
  prompt?: string;
  /** Where it was asked for, for messages (`formats.2`, `jsonOptions`). */
  field: string;
}

/** The native page fields of a scrape body (the pass-through ones are checked by the native schema). */
export interface NativePageFields {
  /** Never empty: a json-only request still scrapes markdown for the document's metadata. */
  formats: PageFormat[];
  headers?: unknown;
  includeTags?: unknown;
  excludeTags?: unknown;
  onlyMainContent?: unknown;
  timeout?: unknown;
  waitFor?: unknown;
  mobile?: unknown;
  actions?: unknown;
  location?: unknown;
  maxAge?: unknown;
  storeInCache?: unknown;
  /** The changeTracking format's options (v2: the format object's fields; v1: `changeTrackingOptions`). */
  changeTrackingOptions?: unknown;
  /** Firecrawl `basic` → `default`, `auto` → `auto` (see `nativeProxy`). */
  proxy?: 'default' | 'auto';
}

export interface TranslatedScrapeOptions {
  page: NativePageFields;
  /** The document fields to return (markdown is dropped when only `json` was asked for). */
  wanted: FirecrawlFormat[];
  json?: JsonExtraction;
}

export interface TranslateOptions {
  /** Where the options sit in the caller's body ('' for scrape, 'scrapeOptions.' for crawl). */
  prefix?: string;
  /** False where no LLM step exists (crawl, batch): a `json` format is a 400 naming it. */
  allowJson?: boolean;
  /**
   * `maxAge` when the caller gives none: FIRECRAWL_V2_DEFAULT_MAX_AGE_MS for the v2 features that
   * return pages (scrape, batch, crawl); unset where the native feature reads no cache.
   */
  defaultMaxAge?: number;
}

const STRING_FORMATS: Record<string, FirecrawlFormat> = {
  markdown: 'markdown',
  html: 'html',
  rawHtml: 'rawHtml',
  links: 'links',
  images: 'images',
  screenshot: 'screenshot',
  summary: 'summary',
};

/** Formats Firecrawl has and we do not (the message says so instead of "invalid"). */
export const UNSUPPORTED_FORMATS: ReadonlySet<string> = new Set([
  'attributes',
  'branding',
  'product',
  'menu',
  'audio',
  'video',
  'question',
  'highlights',
  'query',
  'content',
]);

function refuse(field: string, message: string): never {
  throw new ValidationError(`${field}: ${message}`, { details: { field } });
}

/** v2 scrape options → native page fields. Throws a 400 naming the caller's field. */
export function toNativePageFields(
  options: FirecrawlScrapeOptionsV2,
  o: TranslateOptions = {},
): TranslatedScrapeOptions {
  const at = (name: string) => `${o.prefix ?? ''}${name}`;
  checkCommon(options, at);
  refuseSet(options, at, ['fastMode', 'useMock', 'lockdown', 'threatProtection', 'profile', 'domainTools']);
  refuseSet(options, at, ['redactPII', 'minAge', 'toolDetail']);
  checkParsers(options.parsers, at('parsers'));

  const natives = new Set<PageFormat>();
  const wanted = new Set<FirecrawlFormat>();
  let json: JsonExtraction | undefined;
  let tracking: Record<string, unknown> | undefined;
  for (const [i, fmt] of (options.formats ?? ['markdown']).entries()) {
    const field = at(`formats.${i}`);
    const type = typeof fmt === 'string' ? fmt : formatType(fmt, field);
    if (type === 'changeTracking') {
      if (tracking) refuse(field, 'give the changeTracking format once');
      tracking = typeof fmt === 'object' ? changeTrackingFormat(fmt as Record<string, unknown>, field) : {};
      natives.add('changeTracking');
      wanted.add('changeTracking');
      continue;
    }
    if (type === 'json') {
      if (typeof fmt === 'string')
        refuse(field, 'the json format is an object { type: "json", schema?, prompt? }');
      if (json) refuse(field, 'give the json format once');
      json = jsonFormat(fmt as Record<string, unknown>, field, o);
      wanted.add('json');
      continue;
    }
    if (type === 'screenshot' && typeof fmt === 'object') {
      natives.add(screenshotFormat(fmt as Record<string, unknown>, field));
      wanted.add('screenshot');
      continue;
    }
    const known = STRING_FORMATS[type];
    if (known) {
      if (typeof fmt === 'object') onlyKeys(fmt as Record<string, unknown>, ['type'], field);
      natives.add(known as PageFormat);
      wanted.add(known);
      continue;
    }
    refuseFormat(type, field);
  }
  const translated = finish(options, natives, wanted, json, tracking ? undefined : o.defaultMaxAge);
  if (tracking && Object.keys(tracking).length > 0) translated.page.changeTrackingOptions = tracking;
  return translated;
}

/**
 * v2's `{ type: "changeTracking", modes?, schema?, prompt?, tag? }` → the native
 * `changeTrackingOptions` (checked by the native schema, which names `changeTrackingOptions.*`).
 */
function changeTrackingFormat(fmt: Record<string, unknown>, field: string): Record<string, unknown> {
  onlyKeys(fmt, ['type', 'modes', 'schema', 'prompt', 'tag'], field);
  const { type: _type, ...rest } = fmt;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== null));
}

/** v1 scrape params → native page fields (v1 names: `jsonOptions`, `extract`, `screenshot@fullPage`). */
export function toNativePageFieldsV1(
  options: FirecrawlScrapeOptionsV1,
  o: TranslateOptions = {},
): TranslatedScrapeOptions {
  const at = (name: string) => `${o.prefix ?? ''}${name}`;
  checkCommon(options, at);
  refuseSet(options, at, ['agent']);
  if (options.parsePDF === false) refuse(at('parsePDF'), 'false (PDFs as raw files) is not supported');
  if (options.parsePDF !== undefined && options.parsePDF !== true)
    refuse(at('parsePDF'), 'must be a boolean');

  const natives = new Set<PageFormat>();
  const wanted = new Set<FirecrawlFormat>();
  let json: JsonExtraction | undefined;
  for (const [i, fmt] of (options.formats ?? ['markdown']).entries()) {
    const field = at(`formats.${i}`);
    if (typeof fmt !== 'string') refuse(field, 'v1 formats are strings, e.g. "markdown"');
    if (fmt === 'json' || fmt === 'extract') {
      const name = fmt === 'json' ? 'jsonOptions' : 'extract';
      const llm = options[name];
      if (!llm) refuse(field, `the ${fmt} format needs ${at(name)} { schema?, prompt? }`);
      if (json) refuse(field, 'give one of the json and extract formats, once');
      json = extraction(llm, at(name), o);
      wanted.add('json');
      continue;
    }
    if (fmt === 'screenshot@fullPage') {
      natives.add('screenshot@fullPage');
      wanted.add('screenshot');
      continue;
    }
    if (fmt === 'changeTracking') {
      natives.add('changeTracking');
      wanted.add('changeTracking');
      continue;
    }
    const known = STRING_FORMATS[fmt];
    if (known) {
      natives.add(known as PageFormat);
      wanted.add(known);
      continue;
    }
    refuseFormat(fmt, field);
  }
  const translated = finish(options, natives, wanted, json);
  if (options.changeTrackingOptions !== undefined)
    translated.page.changeTrackingOptions = options.changeTrackingOptions;
  return translated;
}

/**
 * Firecrawl v2 serves a cached copy up to 2 days old unless the request says otherwise
 * (docs.firecrawl.dev/features/fast-scraping); v1 fetches unless `maxAge` is given.
 */
export const FIRECRAWL_V2_DEFAULT_MAX_AGE_MS = 172_800_000;

function finish(
  options: FirecrawlScrapeOptionsV1 | FirecrawlScrapeOptionsV2,
  natives: Set<PageFormat>,
  wanted: Set<FirecrawlFormat>,
  json: JsonExtraction | undefined,
  defaultMaxAge?: number,
): TranslatedScrapeOptions {
  // The page is scraped even for json alone: the document's metadata comes from it.
  const formats = natives.size > 0 ? [...natives] : (['markdown'] as PageFormat[]);
  const page: NativePageFields = { formats };
  for (const name of [
    'headers',
    'includeTags',
    'excludeTags',
    'onlyMainContent',
    'timeout',
    'waitFor',
    'mobile',
    'actions',
    'location',
    'maxAge',
    'storeInCache',
  ] as const) {
    if (options[name] !== undefined) page[name] = options[name];
  }
  if (page.maxAge === undefined && defaultMaxAge !== undefined) page.maxAge = defaultMaxAge;
  const proxy = nativeProxy(options.proxy);
  if (proxy) page.proxy = proxy;
  return { page, wanted: [...wanted], ...(json ? { json } : {}) };
}

/** Options both versions share that we honour only at the value we always use. */
function checkCommon(
  options: FirecrawlScrapeOptionsV1 | FirecrawlScrapeOptionsV2,
  at: (n: string) => string,
) {
  if (options.proxy !== undefined && options.proxy !== 'basic' && options.proxy !== 'auto') {
    refuse(
      at('proxy'),
      `"${String(options.proxy).slice(0, 50)}" is not supported; "basic" (every request through the deployment's PROXY_URLS, direct when none are set) and "auto" (direct first, then through PROXY_URLS when a wall answers) are`,
    );
  }
  if (options.skipTlsVerification === true)
    refuse(at('skipTlsVerification'), 'true is not supported; certificates are always verified');
  if (options.removeBase64Images === false)
    refuse(at('removeBase64Images'), 'false is not supported; base64 images are always removed');
  if (options.blockAds === true)
    refuse(at('blockAds'), 'true is not supported; this service does not block ads');
  if (options.zeroDataRetention === true) refuse(at('zeroDataRetention'), 'is not supported');
  if (options.auditMetadata !== undefined) refuse(at('auditMetadata'), 'is not supported');
  for (const [i, action] of (Array.isArray(options.actions) ? options.actions : []).entries()) {
    const type = (action as { type?: unknown } | null)?.type;
    if (type === 'scrape' || type === 'pdf' || type === 'generatePDF')
      refuse(at(`actions.${i}.type`), `the "${type}" action is not supported`);
  }
  for (const name of ['skipTlsVerification', 'removeBase64Images', 'blockAds']) {
    const v = (options as Record<string, unknown>)[name];
    if (v !== undefined && typeof v !== 'boolean') refuse(at(name), 'must be a boolean');
  }
}

/**
 * Firecrawl's proxy modes → the native ones. `basic` (Firecrawl: its ordinary proxies, no
 * escalation) is `default`: the deployment's PROXY_URLS on every request (direct when none are
 * set); `auto` (Firecrawl: basic, then stealth when that fails) is `auto`: direct first, then the
 * next of PROXY_URLS when a wall still stands after the browser. `stealth` is refused: there is
 * no second, stealthier pool, and nothing here forges a fingerprint. Omitted: the native default.
 */
function nativeProxy(proxy: unknown): NativePageFields['proxy'] {
  if (proxy === 'basic') return 'default';
  if (proxy === 'auto') return 'auto';
  return undefined;
}

/** Options with no counterpart here: refused when given with a value that asks for something. */
function refuseSet(options: object, at: (n: string) => string, names: string[]) {
  for (const name of names) {
    const v = (options as Record<string, unknown>)[name];
    if (v === undefined || v === null || v === false) continue;
    refuse(at(name), 'is not supported by this service');
  }
}

function checkParsers(parsers: unknown, field: string) {
  if (parsers === undefined) return;
  if (!Array.isArray(parsers)) refuse(field, 'must be an array, e.g. ["pdf"]');
  if (parsers.length === 0) refuse(field, '[] (PDFs as raw files) is not supported; PDFs are always parsed');
  for (const [i, p] of parsers.entries()) {
    const type = typeof p === 'string' ? p : formatType(p, `${field}.${i}`);
    if (type !== 'pdf') refuse(`${field}.${i}`, `the "${type}" parser is not supported (only "pdf")`);
    if (typeof p === 'object') onlyKeys(p as Record<string, unknown>, ['type'], `${field}.${i}`);
  }
}

function formatType(fmt: unknown, field: string): string {
  if (typeof fmt !== 'object' || fmt === null || Array.isArray(fmt))
    refuse(field, 'must be a format name or an object with a type');
  const type = (fmt as { type?: unknown }).type;
  if (typeof type !== 'string') refuse(`${field}.type`, 'is required and must be a string');
  return type;
}

function onlyKeys(obj: Record<string, unknown>, allowed: string[], field: string) {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) refuse(`${field}.${key}`, 'is not supported by this service');
  }
}

function refuseFormat(type: string, field: string): never {
  if (UNSUPPORTED_FORMATS.has(type)) refuse(field, `the "${type}" format is not supported by this service`);
  refuse(field, `unknown format "${type.slice(0, 50)}"`);
}

function screenshotFormat(fmt: Record<string, unknown>, field: string): PageFormat {
  onlyKeys(fmt, ['type', 'fullPage'], field);
  if (fmt.fullPage !== undefined && typeof fmt.fullPage !== 'boolean')
    refuse(`${field}.fullPage`, 'must be a boolean');
  return fmt.fullPage === true ? 'screenshot@fullPage' : 'screenshot';
}

function jsonFormat(fmt: Record<string, unknown>, field: string, o: TranslateOptions): JsonExtraction {
  onlyKeys(fmt, ['type', 'schema', 'prompt', 'checkPromptInjection'], field);
  return extraction(fmt, field, o);
}

function extraction(
  llm: { schema?: unknown; prompt?: unknown; systemPrompt?: unknown; checkPromptInjection?: unknown },
  field: string,
  o: TranslateOptions,
): JsonExtraction {
  if (o.allowJson === false) refuse(field, 'the json format (LLM extraction) is only supported by scrape');
  if (llm.systemPrompt !== undefined) refuse(`${field}.systemPrompt`, 'is not supported; put it in prompt');
  if (llm.checkPromptInjection === true)
    refuse(`${field}.checkPromptInjection`, 'is not supported by this service');
  if (llm.prompt !== undefined && typeof llm.prompt !== 'string')
    refuse(`${field}.prompt`, 'must be a string');
  const prompt = typeof llm.prompt === 'string' && llm.prompt.trim() ? llm.prompt.trim() : undefined;
  const schema = llm.schema === undefined ? undefined : toPlainSchema(llm.schema, `${field}.schema`);
  if (!schema && !prompt) refuse(field, 'the json format needs a schema, a prompt, or both');
  return { field, ...(schema ? { schema } : {}), ...(prompt ? { prompt } : {}) };
}
