import { z } from 'zod';
import { errorResponse } from '../contract/responses';

/**
 * The OpenAPI 3.1 description served at GET /v1/openapi.json. Request bodies are generated from
 * the same zod schemas the routes validate with (`../contract/*.request.ts`), so the document
 * cannot drift from the code; responses are generated from the response contract
 * (`../contract/responses.ts`, built on the document contract in
 * `packages/queues/src/document.contract.ts`).
 */
export interface OperationSpec {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  summary: string;
  description?: string;
  body?: z.ZodType;
  /**
   * A file upload instead of a JSON body (POST /v1/parse): a form with a `file` part and an
   * `options` part of this schema, or the file as the raw body of one of `rawTypes`.
   */
  upload?: { options: z.ZodType; rawTypes: string[] };
  /** Path/query parameters: name -> description. */
  params?: Record<string, { in: 'path' | 'query'; description: string }>;
  /** `contentType` defaults to application/json (the CSV export is text/csv). */
  success: { status: number; description: string; schema: z.ZodType; contentType?: string };
  errors: number[];
  /** `optional`: served without a key too (the URL is the credential), the key still accepted. */
  auth?: 'optional';
}

const errorSchema = jsonSchema(errorResponse);

const ERROR_TEXT: Record<number, string> = {
  400: 'invalid JSON, invalid field (named in the message), invalid or forbidden URL',
  401: 'missing, unknown or revoked API key',
  402: 'insufficient credits',
  403: 'a dashboard session call that changes something without its X-CSRF-Token',
  404: 'unknown id, or an id of another account',
  409: 'the request contradicts the current state (named in the message)',
  413: 'request body too large',
  415: 'the target is not a text document (parse: the file is not a PDF, DOCX or HTML file)',
  422: 'a document (PDF, DOCX) that cannot be read: damaged, encrypted or cut short; or a failed page action',
  429: 'rate limit exceeded (Retry-After header)',
  502: 'the target failed: HTTP error, blocked, unreachable, TLS, redirects, too large',
  503: 'queue unavailable; retry',
  504: 'timed out; retry',
};

export function buildOpenApiDocument(operations: OperationSpec[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const oaPath = op.path.replace(/:(\w+)/g, '{$1}');
    const responses: Record<string, unknown> = {
      [op.success.status]: {
        description: op.success.description,
        content: {
          [op.success.contentType ?? 'application/json']: { schema: jsonSchema(op.success.schema) },
        },
      },
    };
    for (const status of op.errors) {
      responses[status] = {
        description: ERROR_TEXT[status] ?? 'error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    paths[oaPath] ??= {};
    paths[oaPath][op.method] = {
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      ...(op.auth === 'optional' ? { security: [{}, { bearer: [] }] } : {}),
      ...(op.params
        ? {
            parameters: Object.entries(op.params).map(([name, p]) => ({
              name,
              in: p.in,
              required: p.in === 'path',
              description: p.description,
              schema: { type: 'string' },
            })),
          }
        : {}),
      ...(op.body
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': { schema: stripMeta(z.toJSONSchema(op.body, { io: 'input' })) },
              },
            },
          }
        : {}),
      ...(op.upload ? { requestBody: uploadRequestBody(op.upload) } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Web Content Service', version: '1.0.0' },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
      },
      schemas: { Error: errorSchema },
    },
    paths,
  };
}

function uploadRequestBody(upload: NonNullable<OperationSpec['upload']>): Record<string, unknown> {
  const file = { type: 'string', contentMediaType: 'application/octet-stream' };
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: { file, options: stripMeta(z.toJSONSchema(upload.options, { io: 'input' })) },
          required: ['file'],
        },
        encoding: { options: { contentType: 'application/json' } },
      },
      ...Object.fromEntries(upload.rawTypes.map((type) => [type, { schema: file }])),
    },
  };
}

/** A response schema as JSON Schema: what the gateway sends (`io: 'output'`). */
export function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  return stripMeta(z.toJSONSchema(schema, { io: 'output' }));
}

function stripMeta(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _drop, ...rest } = schema;
  return rest;
}
