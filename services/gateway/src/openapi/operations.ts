import { batchBody } from '../routes/batch.routes';
import { crawlBody } from '../routes/crawl.routes';
import { extractBody } from '../routes/extract.routes';
import { mapBody } from '../routes/map.routes';
import { scrapeBody } from '../routes/scrape.routes';
import { searchBody } from '../routes/search.routes';
import { MONITOR_OPERATIONS } from './monitor.operations';
import type { OperationSpec } from './openapi.document';

const documentData = {
  type: 'object',
  required: ['markdown', 'html', 'text', 'metadata'],
  properties: {
    markdown: { type: 'string' },
    html: { type: 'string' },
    text: { type: 'string' },
    json: { type: 'object', description: 'structured document; only when format is json' },
    metadata: {
      type: 'object',
      required: ['title', 'statusCode', 'sourceURL'],
      properties: {
        title: { type: ['string', 'null'] },
        description: { type: ['string', 'null'] },
        language: { type: ['string', 'null'] },
        canonicalUrl: { type: ['string', 'null'] },
        statusCode: { type: 'integer' },
        sourceURL: { type: 'string' },
        finalUrl: { type: 'string' },
      },
    },
  },
};

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
      schema: { type: 'object', properties: { success: { const: true }, data: documentData } },
    },
    errors: [400, 401, 402, 413, 415, 429, 502, 503, 504],
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
      schema: {
        type: 'object',
        properties: {
          success: { const: true },
          id: { type: 'string', format: 'uuid' },
          total: { type: 'integer' },
        },
      },
    },
    errors: [400, 401, 402, 413, 429],
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
      schema: {
        type: 'object',
        properties: {
          success: { const: true },
          id: { type: 'string' },
          status: { enum: ['pending', 'processing', 'done'] },
          total: { type: 'integer' },
          completed: { type: 'integer' },
          failed: { type: 'integer' },
          creditsUsed: { type: 'integer' },
          next: { type: 'string', description: 'present when more results remain' },
          results: {
            type: 'array',
            items: {
              type: 'object',
              required: ['url', 'status'],
              properties: {
                id: { type: 'string', description: 'only when given in items' },
                url: { type: 'string' },
                status: { enum: ['done', 'failed'] },
                data: documentData,
                error: { type: 'string' },
                code: { type: 'string' },
              },
            },
          },
        },
      },
    },
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
      schema: {
        type: 'object',
        properties: {
          success: { const: true },
          id: { type: 'string', format: 'uuid' },
          url: { type: 'string' },
        },
      },
    },
    errors: [400, 401, 402, 413, 429, 503],
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
      schema: {
        type: 'object',
        properties: {
          success: { const: true },
          id: { type: 'string' },
          status: { enum: ['pending', 'processing', 'done', 'failed'] },
          url: { type: 'string' },
          total: { type: 'integer', description: 'pages in the frontier (≤ maxPages)' },
          completed: { type: 'integer' },
          failed: { type: 'integer' },
          creditsUsed: { type: 'integer' },
          stopReason: {
            enum: ['completed', 'max_pages', 'cancelled', 'out_of_credits', 'timeout', 'error'],
            description: 'only when done or failed',
          },
          error: { type: 'string' },
          next: { type: 'string', description: 'present when more pages remain' },
          pages: {
            type: 'array',
            items: {
              type: 'object',
              required: ['url', 'markdown', 'metadata'],
              properties: {
                url: { type: 'string' },
                markdown: { type: 'string' },
                metadata: documentData.properties.metadata,
                html: { type: 'string', description: 'format html' },
                text: { type: 'string', description: 'format text' },
                json: { type: 'object', description: 'format json' },
              },
            },
          },
          failedPages: {
            type: 'array',
            items: {
              type: 'object',
              required: ['url', 'error', 'code'],
              properties: {
                url: { type: 'string' },
                error: { type: 'string' },
                code: { type: 'string' },
                statusCode: { type: 'integer' },
              },
            },
          },
        },
      },
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
      schema: {
        type: 'object',
        properties: {
          success: { const: true },
          id: { type: 'string' },
          status: { type: 'string' },
          stopReason: { type: 'string' },
        },
      },
    },
    errors: [401, 404, 429],
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
      schema: {
        type: 'object',
        properties: {
          success: { const: true },
          creditsUsed: { type: 'integer' },
          data: {
            type: 'array',
            items: {
              type: 'object',
              required: ['url', 'title', 'description'],
              properties: {
                url: { type: 'string' },
                title: { type: 'string' },
                description: { type: 'string' },
                markdown: { type: ['string', 'null'] },
                metadata: { type: 'object' },
                error: { type: 'string' },
                code: { type: 'string' },
              },
            },
          },
        },
      },
    },
    errors: [400, 401, 402, 429, 502, 503],
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
      schema: {
        type: 'object',
        properties: {
          success: { const: true },
          links: { type: 'array', items: { type: 'string' } },
          total: { type: 'integer' },
          warning: {
            type: 'string',
            description: 'present when the start page failed (or was not HTML) but other sources gave links',
          },
        },
      },
    },
    errors: [400, 401, 402, 429, 502, 503, 504],
  },
  {
    method: 'post',
    path: '/v1/extract',
    summary: 'Structured extraction with a language model (5 credits, refunded on failure)',
    description:
      'schema is the plain shape ("string", "number", "boolean", one-element arrays, nested objects); data has exactly that shape and fields the page does not contain are null. With prompt only, data is a JSON object the model chose. At least one of schema and prompt. 503 when no model is configured (the message names the variable to set).',
    body: extractBody,
    success: {
      status: 200,
      description: 'the extracted data',
      schema: {
        type: 'object',
        properties: { success: { const: true }, data: { type: 'object' } },
      },
    },
    errors: [400, 401, 402, 429, 500, 502, 503, 504],
  },
  ...MONITOR_OPERATIONS,
];
