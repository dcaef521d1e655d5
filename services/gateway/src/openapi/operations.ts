import { batchBody } from '../contract/batch.request';
import { crawlBody } from '../contract/crawl.request';
import { extractBody } from '../contract/extract.request';
import { mapBody } from '../contract/map.request';
import { parseOptions } from '../contract/parse.request';
import {
  batchCancelResponse,
  batchStartResponse,
  batchStatusResponse,
  crawlCancelResponse,
  crawlStartResponse,
  crawlStatusResponse,
  extractResponse,
  jobWebhookDeliveriesResponse,
  mapResponse,
  scrapeResponse,
  searchResponse,
} from '../contract/responses';
import { scrapeBody } from '../contract/scrape.request';
import { searchBody } from '../contract/search.request';
import { ACCOUNT_OPERATIONS } from './account.operations';
import { MONITOR_OPERATIONS } from './monitor.operations';
import type { OperationSpec } from './openapi.document';
import { SCREENSHOT_OPERATIONS } from './screenshot.operations';

/** Every documented operation; route files own the body schemas. */
export const OPERATIONS: OperationSpec[] = [
  {
    method: 'post',
    path: '/v1/scrape',
    summary: 'Scrape one page (1 credit, refunded on failure)',
    body: scrapeBody,
    success: {
      status: 200,
      description: 'the page',
      schema: scrapeResponse,
    },
    errors: [400, 401, 402, 413, 415, 429, 502, 503, 504],
  },
  {
    method: 'post',
    path: '/v1/parse',
    summary: 'Convert a PDF, DOCX or HTML file you send into a document (1 credit, refunded on failure)',
    description:
      'The file as a multipart/form-data `file` part (options in an `options` JSON part or as plain fields) or as the raw body (options in the query string: `?formats=markdown,links&onlyMainContent=false&filename=a.pdf`). At most MAX_DOCUMENT_BYTES (413 past it). Its type is read from its bytes: 415 for anything but PDF, DOCX and HTML (not charged); a damaged file is 422 DOCUMENT_UNREADABLE (refunded). Options that say how a page is fetched (waitFor, actions, headers, proxy, maxAge…) are 400.',
    upload: {
      options: parseOptions,
      rawTypes: [
        'application/pdf',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'text/html',
      ],
    },
    success: { status: 200, description: 'the document', schema: scrapeResponse },
    errors: [400, 401, 402, 413, 415, 422, 429, 503, 504],
  },
  {
    method: 'post',
    path: '/v1/batch/scrape',
    summary: 'Start a batch of up to 500 URLs (1 credit per URL, up front; failed items refunded)',
    description: '`items` takes precedence over `urls`. Bare domains are not given https://.',
    body: batchBody,
    success: {
      status: 202,
      description: 'accepted; poll GET /v1/batch/scrape/{id}',
      schema: batchStartResponse,
    },
    errors: [400, 401, 402, 413, 415, 429],
  },
  {
    method: 'get',
    path: '/v1/batch/scrape/:id',
    summary: 'Poll a batch',
    params: {
      id: { in: 'path', description: 'batch id' },
      skip: { in: 'query', description: 'results to skip (default 0)' },
      limit: { in: 'query', description: 'results per page (default and max 500)' },
    },
    success: {
      status: 200,
      description: 'batch status and finished results in submission order',
      schema: batchStatusResponse,
    },
    errors: [400, 401, 404, 429],
  },
  {
    method: 'delete',
    path: '/v1/batch/scrape/:id',
    summary: 'Cancel a batch (idempotent): unfinished items fail CANCELLED and are refunded',
    description:
      'Items not yet started are never run or billed; an item already fetching finishes but its result is not kept or billed. Done items stay billed.',
    params: { id: { in: 'path', description: 'batch id' } },
    success: { status: 200, description: 'the batch counts after the cancel', schema: batchCancelResponse },
    errors: [400, 401, 404, 429],
  },
  {
    method: 'get',
    path: '/v1/batch/scrape/:id/webhook-deliveries',
    summary: "The batch webhook's delivery log (every attempt, oldest first)",
    params: { id: { in: 'path', description: 'batch id' } },
    success: { status: 200, description: 'delivery attempts', schema: jobWebhookDeliveriesResponse },
    errors: [401, 404, 429],
  },
  {
    method: 'get',
    path: '/v1/crawl/:id/webhook-deliveries',
    summary: "The crawl webhook's delivery log (every attempt, oldest first)",
    params: { id: { in: 'path', description: 'crawl id' } },
    success: { status: 200, description: 'delivery attempts', schema: jobWebhookDeliveriesResponse },
    errors: [401, 404, 429],
  },
  {
    method: 'post',
    path: '/v1/crawl',
    summary: 'Start a crawl (1 credit per page crawled, charged as pages complete)',
    description:
      'Breadth first from url; robots.txt obeyed unless ignoreRobotsTxt; sitemap URLs seed the frontier at their path depth below the start URL (deeper than maxDepth are left out); maxDepth and maxPages exact. 402 when the balance is 0.',
    body: crawlBody,
    success: {
      status: 202,
      description: 'accepted; poll GET /v1/crawl/{id}',
      schema: crawlStartResponse,
    },
    errors: [400, 401, 402, 413, 415, 429, 503],
  },
  {
    method: 'get',
    path: '/v1/crawl/:id',
    summary: 'Poll a crawl; pages in the order they finished, paged',
    params: {
      id: { in: 'path', description: 'crawl id' },
      skip: { in: 'query', description: 'pages to skip (default 0; applies to pages and failedPages)' },
      limit: { in: 'query', description: 'pages per response (default 100, max 1000)' },
    },
    success: {
      status: 200,
      description: 'crawl status, counts and finished pages',
      schema: crawlStatusResponse,
    },
    errors: [400, 401, 404, 429],
  },
  {
    method: 'delete',
    path: '/v1/crawl/:id',
    summary: 'Cancel a crawl (idempotent); done pages are kept and stay billed',
    params: { id: { in: 'path', description: 'crawl id' } },
    success: {
      status: 200,
      description: 'the crawl status (failed / cancelled unless it had already finished), without pages',
      schema: crawlCancelResponse,
    },
    errors: [400, 401, 404, 429],
  },
  {
    method: 'post',
    path: '/v1/search',
    summary: 'Search the web (or your own corpus) and scrape the hits (2 credits per result with content)',
    description:
      'Provider by config: embedded full-text index (default), SearXNG, Brave. A hit whose page failed has markdown: null and error/code.',
    body: searchBody,
    success: {
      status: 200,
      description: 'results in provider order',
      schema: searchResponse,
    },
    errors: [400, 401, 402, 413, 415, 429, 502, 503],
  },
  {
    method: 'post',
    path: '/v1/map',
    summary: 'List the URLs of a site (1 credit, refunded on failure)',
    description:
      'Sources: robots.txt Sitemap lines, sitemap indexes and gzipped sitemaps, /sitemap.xml, links on the start page and a shallow crawl. The response is not wrapped in data.',
    body: mapBody,
    success: {
      status: 200,
      description:
        'same-site URLs as written (no fragment), de-duplicated by key (host case, default port, query order, tracking parameters; never the trailing slash), ranked when search is given',
      schema: mapResponse,
    },
    errors: [400, 401, 402, 413, 415, 429, 502, 503, 504],
  },
  {
    method: 'post',
    path: '/v1/extract',
    summary: 'Structured extraction with a language model (5 credits, refunded on failure)',
    description:
      'schema is the plain shape ("string", "number", "boolean", one-element arrays, nested objects); data has exactly that shape and fields the page does not contain are null. With prompt only, data is a JSON object the model chose. At least one of schema and prompt. A long page is read in chunks (up to EXTRACT_MAX_CHUNKS): usage counts the model calls and tokens, truncated is true when part of the page was never read, and warning says so, or that chunks failed (then their part of the page is missing from data). 503 when no model is configured (the message names the variable to set).',
    body: extractBody,
    success: {
      status: 200,
      description: 'the extracted data',
      schema: extractResponse,
    },
    errors: [400, 401, 402, 413, 415, 429, 500, 502, 503, 504],
  },
  ...MONITOR_OPERATIONS,
  ...SCREENSHOT_OPERATIONS,
  ...ACCOUNT_OPERATIONS,
];
