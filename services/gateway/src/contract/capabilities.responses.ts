import { z } from 'zod';

/** GET /v1/capabilities: what this deployment offers and every limit a caller meets. No secrets. */
const ok = z.literal(true);
const count = z.number().int();

const route = z.strictObject({ method: z.string().describe('GET | POST | DELETE …'), path: z.string() });

export const capabilitiesResponse = z.strictObject({
  success: ok,
  data: z.strictObject({
    engines: z.strictObject({
      choices: z.array(z.string()).describe('values of `engine`'),
      fetch: z.boolean(),
      browser: z
        .boolean()
        .describe('Chromium is on (BROWSER_ENABLED); off: `engine: "browser"` and actions fail'),
    }),
    documents: z.strictObject({
      types: z.array(z.string()).describe('documents fetched by URL and converted like pages'),
      uploadTypes: z
        .array(z.string())
        .describe('files POST /v1/parse and /firecrawl/v2/parse take (their type read from their bytes)'),
      maxBytes: count.describe('MAX_DOCUMENT_BYTES'),
      ocr: z.strictObject({
        enabled: z.boolean().describe('PDFs without a text layer are read by OCR'),
        languages: z.string().nullable().describe('tesseract languages, e.g. eng+deu; null when off'),
      }),
    }),
    extract: z.strictObject({
      configured: z.boolean().describe('false: extract answers 503 MODEL_NOT_CONFIGURED'),
      provider: z
        .string()
        .describe(
          'anthropic | openai (OpenAI-compatible) | ollama | vllm | llamacpp | local (a GGUF file in-process)',
        ),
      model: z.string().nullable(),
    }),
    search: z.strictObject({ provider: z.string().describe('embedded | searxng | brave') }),
    proxies: z.strictObject({
      count: count.describe('proxies configured (PROXY_URLS); their URLs are never shown'),
      mode: z.string().describe('auto | always: when requests without `proxy` use them'),
    }),
    formats: z.strictObject({
      format: z.array(z.string()).describe('values of the single `format` field'),
      formats: z.array(z.string()).describe('values of the `formats` list'),
    }),
    pageOptions: z.array(z.string()).describe('page option fields of scrape, batch, crawl `scrapeOptions`'),
    firecrawl: z.strictObject({
      basePath: z.string(),
      routes: z.array(route).describe('Firecrawl-compatible routes served (under basePath)'),
      unsupported: z.array(z.string()).describe('Firecrawl endpoints answered with 501 NOT_SUPPORTED'),
      refusedOptions: z
        .array(z.strictObject({ endpoint: z.string(), option: z.string(), refused: z.string() }))
        .describe('Firecrawl options refused with a 400 naming them (what the service cannot honour)'),
    }),
    credits: z.strictObject({
      scrape: count,
      batchPerUrl: count,
      crawlPerPage: count,
      map: count,
      searchPerResult: count,
      extract: count,
      parse: count.describe('one uploaded file (POST /v1/parse)'),
      summary: count.describe(
        'added to a page (scrape, parse, batch item, crawled page, search result) by the `summary` format',
      ),
      changeTrackingJson: count.describe('added to a page by the `json` mode of `changeTracking`'),
      monitorCheck: count,
    }),
    limits: z.strictObject({
      bodyBytes: count.describe('largest request body (BODY_LIMIT_BYTES)'),
      pageBytes: count.describe('largest page body fetched (MAX_BODY_BYTES)'),
      batchUrls: count,
      crawlPages: count,
      mapUrlsDefault: count,
      searchResults: count,
      scrapeTimeoutMsDefault: count,
      scrapeTimeoutMsMax: count,
      waitForMsMax: count,
      searchTimeoutMsDefault: count,
      mapTimeoutMsDefault: count,
      mapTimeoutMsMax: count,
      extractTimeoutMsDefault: count,
      extractTimeoutMsMax: count,
      batchItemTimeoutMs: count.describe('budget of one batch item (BATCH_ITEM_TIMEOUT_MS)'),
      crawlPageTimeoutMs: count.describe('budget of one crawled page (CRAWL_PAGE_TIMEOUT_MS)'),
      actions: count.describe('most `actions` of one request'),
      actionsWaitMsMax: count.describe('most milliseconds the `wait` actions of one request add up to'),
      activeKeysPerAccount: count,
      rateLimit: z.strictObject({
        plan: z.string().describe("the caller's plan"),
        requests: count.describe('requests per window, all keys of the account together'),
        windowSeconds: count,
      }),
    }),
  }),
});
