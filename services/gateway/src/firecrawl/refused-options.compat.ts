import { UNSUPPORTED_FORMATS } from './scrape-options.compat';

/** Firecrawl v2 search options this service refuses whenever they are given (search.compat.ts). */
export const REFUSED_SEARCH_OPTIONS = [
  'categories',
  'includeDomains',
  'excludeDomains',
  'highlights',
  'enterprise',
  'threatProtection',
  'domainTools',
  'toolDetail',
] as const;

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

const entry = (
  endpoint: string,
  option: string,
  example: Record<string, unknown>,
  refused: true | string = JSON.stringify(Object.values(example)[0]),
) => ({ endpoint, option, refused: refused === true ? 'any value' : refused, example });

const ANY = true;
const FETCH_ONLY_ON_PARSE: Array<[string, unknown]> = [
  ['waitFor', 500],
  ['mobile', true],
  ['location', { country: 'de' }],
  ['maxAge', 0],
  ['storeInCache', false],
  ['headers', { 'X-A': '1' }],
  ['actions', [{ type: 'wait', milliseconds: 5 }]],
];

/**
 * Every option the compat routes answer with a 400 because of what it asks (not its shape), from
 * scrape-options.compat.ts (every scrape-options user), search, map, crawl-request, batch, extract
 * and parse compat. `example` is merged into a valid request of the endpoint (parse: the `options`
 * part of a form with a file).
 */
export const REFUSED_FIRECRAWL_OPTIONS: readonly RefusedOption[] = [
  entry('POST /v2/scrape', 'skipTlsVerification', { skipTlsVerification: true }),
  entry('POST /v2/scrape', 'blockAds', { blockAds: true }),
  entry('POST /v2/scrape', 'removeBase64Images', { removeBase64Images: false }),
  entry('POST /v2/scrape', 'zeroDataRetention', { zeroDataRetention: true }),
  entry('POST /v2/scrape', 'auditMetadata', { auditMetadata: { a: 1 } }, ANY),
  entry('POST /v2/scrape', 'proxy', { proxy: 'stealth' }),
  entry('POST /v2/scrape', 'parsers', { parsers: [] }),
  entry('POST /v2/scrape', 'parsers', { parsers: ['docx'] }, 'a parser other than "pdf"'),
  entry(
    'POST /v2/scrape',
    'actions',
    { actions: [{ type: 'pdf' }] },
    '{ type: "scrape" | "pdf" | "generatePDF" }',
  ),
  ...[
    'fastMode',
    'useMock',
    'lockdown',
    'minAge',
    'redactPII',
    'threatProtection',
    'profile',
    'domainTools',
    'toolDetail',
  ].map((option) => entry('POST /v2/scrape', option, { [option]: option === 'minAge' ? 3600 : true }, ANY)),
  ...[...UNSUPPORTED_FORMATS].map((format) =>
    entry('POST /v2/scrape', 'formats', { formats: [format] }, `"${format}"`),
  ),
  entry('POST /v1/scrape', 'agent', { agent: { model: 'x' } }, ANY),
  entry('POST /v1/scrape', 'parsePDF', { parsePDF: false }),
  entry('POST /v2/crawl', 'maxConcurrency', { maxConcurrency: 2 }, ANY),
  entry('POST /v2/crawl', 'prompt', { prompt: 'docs only' }, ANY),
  entry('POST /v2/crawl', 'robotsUserAgent', { robotsUserAgent: 'bot' }, ANY),
  entry('POST /v2/crawl', 'regexOnFullURL', { regexOnFullURL: true }),
  entry('POST /v2/crawl', 'deduplicateSimilarURLs', { deduplicateSimilarURLs: true }),
  entry('POST /v2/crawl', 'zeroDataRetention', { zeroDataRetention: true }),
  entry('POST /v2/crawl', 'scrapeOptions.waitFor', { scrapeOptions: { waitFor: 500 } }, ANY),
  entry('POST /v2/crawl', 'scrapeOptions.timeout', { scrapeOptions: { timeout: 5000 } }, ANY),
  entry(
    'POST /v2/crawl',
    'scrapeOptions.formats',
    { scrapeOptions: { formats: [{ type: 'json', prompt: 'x' }] } },
    'the json format',
  ),
  entry('POST /v2/batch/scrape', 'maxConcurrency', { maxConcurrency: 2 }, ANY),
  entry('POST /v2/batch/scrape', 'appendToId', { appendToId: '00000000-0000-4000-8000-000000000000' }, ANY),
  entry('POST /v2/batch/scrape', 'timeout', { timeout: 5000 }, ANY),
  entry('POST /v2/batch/scrape', 'waitFor', { waitFor: 500 }, ANY),
  entry('POST /v2/batch/scrape', 'formats', { formats: [{ type: 'json', prompt: 'x' }] }, 'the json format'),
  entry('POST /v2/map', 'ignoreQueryParameters', { ignoreQueryParameters: true }),
  entry('POST /v2/map', 'location', { location: { country: 'de' } }, ANY),
  entry('POST /v2/map', 'auditMetadata', { auditMetadata: { a: 1 } }, ANY),
  entry('POST /v2/map', 'threatProtection', { threatProtection: true }, ANY),
  entry('POST /v2/search', 'tbs', { tbs: 'qdr:d' }, ANY),
  entry('POST /v2/search', 'location', { location: 'Berlin,Germany' }, 'a free-text location (use country)'),
  entry('POST /v2/search', 'sources', { sources: ['news'] }, 'a source other than "web"'),
  ...REFUSED_SEARCH_OPTIONS.map((option) =>
    entry(
      'POST /v2/search',
      option,
      {
        [option]: option === 'highlights' ? true : option.endsWith('Domains') ? ['example.com'] : ['github'],
      },
      ANY,
    ),
  ),
  entry(
    'POST /v2/search',
    'scrapeOptions.formats',
    { scrapeOptions: { formats: ['screenshot'] } },
    'a format other than markdown, html, changeTracking and summary',
  ),
  entry(
    'POST /v2/search',
    'scrapeOptions.waitFor',
    { scrapeOptions: { waitFor: 500 } },
    'any option but formats and onlyMainContent',
  ),
  entry('POST /v1/search', 'filter', { filter: 'x' }, ANY),
  entry(
    'POST /v2/extract',
    'urls',
    { urls: ['http://127.0.0.1:9/a', 'http://127.0.0.1:9/b'] },
    'more than one URL',
  ),
  entry('POST /v2/extract', 'urls', { urls: ['http://127.0.0.1:9/*'] }, 'a /* wildcard'),
  ...[
    'systemPrompt',
    'allowExternalLinks',
    'enableWebSearch',
    'showSources',
    'agent',
    'webhook',
    'threatProtection',
  ].map((option) =>
    entry('POST /v2/extract', option, { [option]: option === 'systemPrompt' ? 'be brief' : true }, ANY),
  ),
  entry('POST /v2/extract', 'scrapeOptions.formats', { scrapeOptions: { formats: ['markdown'] } }, ANY),
  ...['onlyMainContent', 'timeout', 'maxAge'].map((name) =>
    entry(
      'POST /v2/extract',
      `scrapeOptions.${name}`,
      { scrapeOptions: { [name]: name === 'onlyMainContent' ? false : 5000 } },
      ANY,
    ),
  ),
  entry('POST /v1/extract', 'includeSubdomains', { includeSubdomains: true }, ANY),
  ...FETCH_ONLY_ON_PARSE.map(([option, value]) => entry('POST /v2/parse', option, { [option]: value }, ANY)),
  entry('POST /v2/parse', 'proxy', { proxy: 'stealth' }),
  entry('POST /v2/parse', 'formats', { formats: [{ type: 'json', prompt: 'x' }] }, 'the json format'),
  entry('POST /v2/parse', 'formats', { formats: ['screenshot'] }, '"screenshot" and "images"'),
];
