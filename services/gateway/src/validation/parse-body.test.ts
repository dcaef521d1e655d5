import { ServiceError, ValidationError } from '@wcs/errors';
import { z } from 'zod';
import { batchBody } from '../contract/batch.request';
import { crawlBody } from '../contract/crawl.request';
import { extractBody } from '../contract/extract.request';
import { mapBody } from '../contract/map.request';
import { monitorBody } from '../contract/monitor.request';
import { scrapeBody } from '../contract/scrape.request';
import { searchBody } from '../contract/search.request';
import { buildOpenApiDocument } from '../openapi/openapi.document';
import { OPERATIONS } from '../openapi/operations';
import { closestKey, parseBody } from './parse-body';

interface JsonSchema {
  additionalProperties?: unknown;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
}

function rejection(schema: z.ZodType, body: unknown): ServiceError {
  try {
    parseBody(schema, body);
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
}

describe('parseBody: unknown fields', () => {
  it('names an unknown field with a hint when it is a near miss (400 VALIDATION_FAILED)', () => {
    const err = rejection(scrapeBody, { url: 'example.com', onlyMaincontent: false });
    expect(err.status).toBe(400);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.message).toBe('Unrecognized field "onlyMaincontent" (did you mean "onlyMainContent"?)');
    expect(err.details).toMatchObject({
      field: 'onlyMaincontent',
      unrecognized: [{ field: 'onlyMaincontent', didYouMean: 'onlyMainContent' }],
    });
  });

  it('lists every unknown field; no hint for names far from any known one', () => {
    const err = rejection(scrapeBody, {
      url: 'example.com',
      stealthMode: true,
      onlyMainContnt: false,
    });
    expect(err.message).toBe(
      'Unrecognized fields "stealthMode", "onlyMainContnt" (did you mean "onlyMainContent"?)',
    );
    expect(err.details?.unrecognized).toEqual([
      { field: 'stealthMode' },
      { field: 'onlyMainContnt', didYouMean: 'onlyMainContent' },
    ]);
  });

  it('reports unknown fields before other problems (a misspelt required field)', () => {
    const err = rejection(crawlBody, { URL: 'example.com' });
    expect(err.message).toBe('Unrecognized field "URL" (did you mean "url"?)');
    const snake = rejection(crawlBody, { url: 'example.com', max_depth: 1 });
    expect(snake.message).toBe('Unrecognized field "max_depth" (did you mean "maxDepth"?)');
  });

  it('rejects unknown fields inside batch items, naming the path', () => {
    const err = rejection(batchBody, {
      items: [{ url: 'https://a.test/' }, { url: 'https://b.test/', ID: 'x' }],
    });
    expect(err.message).toBe('Unrecognized field "items.1.ID" (did you mean "id"?)');
  });

  it('every /v1 body is strict', () => {
    const valid: Array<[z.ZodType, Record<string, unknown>]> = [
      [scrapeBody, { url: 'example.com' }],
      [batchBody, { urls: ['https://a.test/'] }],
      [crawlBody, { url: 'example.com' }],
      [mapBody, { url: 'example.com' }],
      [searchBody, { query: 'q' }],
      [extractBody, { url: 'example.com', prompt: 'p' }],
      [monitorBody, { url: 'example.com' }],
    ];
    for (const [schema, body] of valid) {
      expect(() => parseBody(schema, body)).not.toThrow();
      expect(rejection(schema, { ...body, bogus: 1 }).message).toBe('Unrecognized field "bogus"');
    }
  });

  it('keeps aliases and leaves user JSON (extract schema) free-form', () => {
    expect(parseBody(mapBody, { url: 'x.test', maxUrls: 3 }).maxUrls).toBe(3);
    expect(parseBody(mapBody, { url: 'x.test', max_urls: 3 }).max_urls).toBe(3);
    const schema = { anyName: 'string', nested: { whatever: 'number' }, list: [{ foo: 'boolean' }] };
    expect(parseBody(extractBody, { url: 'x.test', schema }).schema).toEqual(schema);
  });

  it('keeps the old message for ordinary problems', () => {
    expect(rejection(scrapeBody, { url: 'x.test', onlyMainContent: 'yes' }).message).toMatch(
      /^onlyMainContent: /,
    );
  });
});

describe('closestKey', () => {
  const known = ['url', 'format', 'onlyMainContent', 'engine', 'waitFor', 'timeout'];
  it('matches case-, underscore- and small-typo variants, nothing far', () => {
    expect(closestKey('only_main_content', known)).toBe('onlyMainContent');
    expect(closestKey('URL', known)).toBe('url');
    expect(closestKey('urls', known)).toBe('url');
    expect(closestKey('timeuot', known)).toBe('timeout');
    expect(closestKey('wait_for', known)).toBe('waitFor');
    expect(closestKey('enigne', known)).toBe('engine');
    expect(closestKey('actions', known)).toBeUndefined();
    expect(closestKey('id', known)).toBeUndefined();
  });
});

describe('OpenAPI request bodies', () => {
  it('forbid additional properties at every level we own, not inside extract schema', () => {
    const doc = buildOpenApiDocument(OPERATIONS) as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: JsonSchema }> } }>
      >;
    };
    // JSON bodies (POST /v1/parse takes a file: its form's `options` part is checked below).
    const bodies = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.values(ops)
        .filter((op) => op.requestBody?.content['application/json'])
        .map((op) => [path, op.requestBody?.content['application/json']?.schema] as const),
    );
    const upload = doc.paths['/v1/parse']?.post?.requestBody?.content['multipart/form-data']?.schema;
    expect(upload?.properties?.options?.additionalProperties).toBe(false);
    expect(bodies.map(([p]) => p).sort()).toEqual(
      [
        '/dashboard/api/session',
        '/v1/batch/scrape',
        '/v1/crawl',
        '/v1/extract',
        '/v1/keys',
        '/v1/keys/{id}',
        '/v1/map',
        '/v1/monitor',
        '/v1/monitor/{id}',
        '/v1/scrape',
        '/v1/search',
      ].sort(),
    );
    for (const [, schema] of bodies) expect(schema?.additionalProperties).toBe(false);
    const batch = bodies.find(([p]) => p === '/v1/batch/scrape')?.[1];
    expect(batch?.properties?.items?.items?.additionalProperties).toBe(false);
    const extract = bodies.find(([p]) => p === '/v1/extract')?.[1];
    expect(extract?.properties?.schema?.additionalProperties).not.toBe(false);
  });
});

describe('parseBody: depth and size limits', () => {
  const nest = (levels: number): unknown => {
    let v: unknown = 'x';
    for (let i = 0; i < levels; i++) v = { a: v };
    return v;
  };

  it('refuses a body nested deeper than 32 levels before zod walks it, naming the limit and the path', () => {
    // 100,000 levels would overflow the stack of any recursive walk.
    const err = rejection(extractBody, { url: 'example.com', prompt: 'x', schema: nest(100_000) });
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.message).toMatch(/^schema\.a\.a.*: the request body is nested deeper than 32 levels$/);
    const shallow = rejection(scrapeBody, { url: 'example.com', format: nest(30) });
    expect(shallow.message).not.toContain('nested deeper');
  });

  it('states the bound of a size limit even when the field has a type-only message', () => {
    const prompt = rejection(extractBody, { url: 'example.com', prompt: 'p'.repeat(10_001) });
    expect(prompt.message).toBe('prompt: must be at most 10,000 characters');
    const id = rejection(batchBody, { items: [{ url: 'https://a.example/', id: 'i'.repeat(257) }] });
    expect(id.message).toBe('items.0.id: must be at most 256 characters');
    // Search's query has a type-only message too; the rule is general.
    const query = rejection(searchBody, { query: 'q'.repeat(501) });
    expect(query.message).toBe('query: must be at most 500 characters');
    expect(rejection(searchBody, { query: '  ' }).message).toBe('query: must not be empty');
  });
});

describe('parseBody: text that cannot be stored', () => {
  it('a NUL character in any string is a 400 naming the field, before the schema runs', () => {
    const schema = z.strictObject({ items: z.array(z.strictObject({ id: z.string() })) });
    const err = rejection(schema, { items: [{ id: 'a' }, { id: 'b\u0000' }] });
    expect([err.status, err.code]).toEqual([400, ValidationError.code]);
    expect(err.message).toBe('items.1.id: contains a NUL character (\\u0000), which text cannot hold');
    expect(err.details).toEqual({ field: 'items.1.id' });
    // Even where the schema takes anything, and before an unknown field is reported.
    expect(() => parseBody(z.strictObject({ a: z.unknown() }), { a: { deep: ['\u0000'] } })).toThrow(
      /^a\.deep\.0: contains a NUL character/,
    );
  });
});
