import { batchBody } from '../routes/batch.routes';
import { scrapeBody } from '../routes/scrape.routes';
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
];
