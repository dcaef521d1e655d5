/**
 * Firecrawl options the compat routes refuse with a 400 naming them (they ask for something this
 * service cannot do), as GET /v1/capabilities lists them. Each entry is a request the route
 * really refuses: tests/src/capabilities.e2e.test.ts sends every one (with a valid `url` /
 * `urls` / `query`) and expects the 400 to name the option.
 */
export interface RefusedOption {
  /** `POST /v2/crawl` (under the Firecrawl base path). */
  endpoint: string;
  /** The option, as the caller names it (dotted for nested ones). */
  option: string;
  /** What is refused (a JSON value, or "any value"). */
  refused: string;
  /** The body fields that show it (merged into a valid request). */
  example: Record<string, unknown>;
}

const entry = (endpoint: string, option: string, example: Record<string, unknown>, anyValue = false) => ({
  endpoint,
  option,
  refused: anyValue ? 'any value' : JSON.stringify(Object.values(example)[0]),
  example,
});

export const REFUSED_FIRECRAWL_OPTIONS: readonly RefusedOption[] = [
  entry('POST /v2/crawl', 'maxConcurrency', { maxConcurrency: 2 }, true),
  entry('POST /v2/crawl', 'prompt', { prompt: 'docs only' }, true),
  entry('POST /v2/crawl', 'robotsUserAgent', { robotsUserAgent: 'bot' }, true),
  entry('POST /v2/crawl', 'regexOnFullURL', { regexOnFullURL: true }),
  entry('POST /v2/crawl', 'deduplicateSimilarURLs', { deduplicateSimilarURLs: true }),
  entry('POST /v2/crawl', 'zeroDataRetention', { zeroDataRetention: true }),
  entry('POST /v2/crawl', 'scrapeOptions.waitFor', { scrapeOptions: { waitFor: 500 } }, true),
  entry('POST /v2/crawl', 'scrapeOptions.timeout', { scrapeOptions: { timeout: 5000 } }, true),
  entry('POST /v2/batch/scrape', 'maxConcurrency', { maxConcurrency: 2 }, true),
  entry('POST /v2/batch/scrape', 'appendToId', { appendToId: '00000000-0000-4000-8000-000000000000' }, true),
  entry('POST /v2/map', 'ignoreQueryParameters', { ignoreQueryParameters: true }),
  entry('POST /v2/map', 'location', { location: { country: 'de' } }, true),
  entry('POST /v2/search', 'tbs', { tbs: 'qdr:d' }, true),
  entry('POST /v2/scrape', 'skipTlsVerification', { skipTlsVerification: true }),
  entry('POST /v2/scrape', 'blockAds', { blockAds: true }),
  entry('POST /v2/scrape', 'removeBase64Images', { removeBase64Images: false }),
];
