/**
 * Requests for the fuzzer: every operation of /v1/openapi.json (and the unauthenticated and admin
 * surfaces) with schema-guided or hostile bodies, odd headers and odd paths; sent with undici and
 * judged against the one error shape.
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { type Dispatcher, request } from 'undici';
import { hostileValue, type JsonSchemaNode, objectValue, rawBody, toJsonText } from './fuzz-arbitraries';

export interface FuzzOperation {
  method: string;
  /** OpenAPI path, `{id}` for parameters. */
  path: string;
  body?: JsonSchemaNode;
  query?: string[];
}

export interface FuzzRequest {
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content?: Record<string, { schema?: JsonSchemaNode }> };
        parameters?: Array<{ name: string; in: string }>;
      }
    >
  >;
}

/** Every documented operation, read from the running gateway's OpenAPI document. */
export function operationsOf(doc: OpenApiDoc): FuzzOperation[] {
  const out: FuzzOperation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const body = op.requestBody?.content?.['application/json']?.schema;
      const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      out.push({ method: method.toUpperCase(), path, ...(body ? { body } : {}), query });
    }
  }
  return out;
}

const printable = (max: number) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    maxLength: max,
  });

const idValue = fc.oneof(
  fc.uuid(),
  fc.constantFrom(
    '00000000-0000-0000-0000-000000000000',
    '%E0%A4%A',
    '%',
    '%00',
    '%2e%2e',
    '..%2f..%2fadmin%2fqueues',
    '%C0%AE%C0%AE',
    'a'.repeat(5_000),
    '%F0%9F%92%A9',
    'null',
    'undefined',
    '__proto__',
    'constructor',
  ),
  printable(40).map((s) => encodeURIComponent(s)),
);

const queryValue = fc.oneof(
  fc.constantFrom(
    '0',
    '1',
    '-1',
    '1.5',
    'abc',
    '1e309',
    '',
    '%',
    '%E0%A4%A',
    '999999999999999999999',
    '0x10',
  ),
  printable(10).map((s) => encodeURIComponent(s)),
);

function queryString(names: string[]): fc.Arbitrary<string> {
  const keys = [...names, 'skip[]', '__proto__[x]', 'limit[a]', 'zzz'];
  return fc
    .array(fc.tuple(fc.constantFrom(...keys), queryValue), { maxLength: 4 })
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));
}

/** Paths off the documented map: escapes, traversal, length, unicode, other prefixes. */
const oddPath = fc.oneof(
  fc.constantFrom(
    '/v1/crawl/%E0%A4%A',
    '/v1/%E0%A4%A',
    '/v1/batch/scrape/%',
    '/v1/../admin/queues',
    '/v1/%2e%2e/admin/queues',
    '/v1//scrape',
    '/v1/scrape/',
    '/V1/SCRAPE',
    '/v1/scrape;x=1',
    '/v1/monitor/%00',
    '/admin/accounts/not-a-uuid',
    '/admin/accounts/%E0%A4%A',
    '/admin/queues/api/queues',
    '/healthz/..',
    '/metrics?x=%',
    '/%',
    '/*',
    `/v1/crawl/${'%41'.repeat(2_000)}`,
    `/${'a/'.repeat(3_000)}`,
    '/v1/openapi.json?%',
  ),
  fc
    .array(fc.oneof(printable(8).map(encodeURIComponent), fc.constantFrom('..', '.', '%', '%zz', 'v1')), {
      maxLength: 6,
    })
    .map((segs) => `/${segs.join('/')}`),
);

const contentType = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=nope',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'a/b/c;;;=',
  '',
);

type Encoding = { header?: string; encode: (b: Buffer) => Buffer };
const encodings: Encoding[] = [
  { encode: (b) => b },
  { header: 'gzip', encode: (b) => gzipSync(b) },
  { header: 'deflate', encode: (b) => deflateSync(b) },
  { header: 'br', encode: (b) => brotliCompressSync(b) },
  { header: 'gzip', encode: (b) => b },
  { header: 'deflate', encode: (b) => b },
  { header: 'br', encode: (b) => b },
  { header: 'gzip', encode: (b) => gzipSync(b).subarray(0, Math.max(1, gzipSync(b).length - 8)) },
  { header: 'identity', encode: (b) => b },
  { header: 'zstd', encode: (b) => b },
  { header: 'gzip, gzip', encode: (b) => gzipSync(gzipSync(b)) },
  { header: 'GZIP', encode: (b) => gzipSync(b) },
  { header: 'x-unknown', encode: (b) => b },
];
const encoding = fc.oneof(
  { arbitrary: fc.constant(encodings[0] as Encoding), weight: 12 },
  { arbitrary: fc.constantFrom(...encodings.slice(1)), weight: 3 },
);

function authValue(apiKey: string, adminToken: string): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { arbitrary: fc.constant(`Bearer ${apiKey}`), weight: 14 },
    {
      arbitrary: fc.constantFrom(
        undefined,
        'Bearer',
        'Bearer ',
        `Bearer ${apiKey}x`,
        `bearer   ${apiKey}  `,
        `Bearer ${apiKey} extra`,
        `Basic ${Buffer.from(`:${apiKey}`).toString('base64')}`,
        `Basic ${Buffer.from(`admin:${adminToken}`).toString('base64')}`,
        `Bearer ${adminToken}`,
        `Bearer ${'k'.repeat(8_000)}`,
        'Token abc',
        'Basic !!!',
      ),
      weight: 3,
    },
    { arbitrary: printable(60), weight: 1 },
  );
}

function serialize(body: unknown): Buffer {
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (typeof body === 'string') return Buffer.from(body);
  return Buffer.from(toJsonText(body));
}

/** One request: a documented operation (mostly) or an odd path, with headers and a body. */
export function fuzzRequest(
  ops: FuzzOperation[],
  ctx: { siteUrl: string; apiKey: string; adminToken: string },
) {
  const headers = fc.record({
    auth: authValue(ctx.apiKey, ctx.adminToken),
    type: contentType,
    enc: encoding,
    reqId: fc.option(printable(80), { freq: 4, nil: undefined }),
  });
  const documented = fc.constantFrom(...ops).chain((op) =>
    fc.record({
      op: fc.constant(op),
      method: fc.oneof(
        { arbitrary: fc.constant(op.method), weight: 10 },
        fc.constantFrom('PUT', 'PATCH', 'HEAD', 'OPTIONS', 'DELETE', 'GET', 'POST'),
      ),
      id: idValue,
      query: queryString(op.query ?? []),
      body: op.body
        ? fc.oneof(
            { arbitrary: objectValue(op.body, { siteUrl: ctx.siteUrl, mutate: false }), weight: 2 },
            { arbitrary: objectValue(op.body, { siteUrl: ctx.siteUrl }), weight: 8 },
            { arbitrary: hostileValue, weight: 1 },
            { arbitrary: rawBody, weight: 1 },
          )
        : fc.option(fc.oneof(hostileValue, rawBody), { freq: 2, nil: undefined }),
      headers,
    }),
  );
  const odd = fc.record({
    method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'OPTIONS'),
    path: oddPath,
    body: fc.option(fc.oneof(hostileValue, rawBody), { freq: 2, nil: undefined }),
    headers,
  });
  return fc.oneof(
    {
      arbitrary: documented.map((r): FuzzRequest => {
        const path = r.op.path.replace('{id}', r.id) + r.query;
        return build(`${r.op.method} ${r.op.path}`, r.method, path, r.body, r.headers);
      }),
      weight: 9,
    },
    {
      arbitrary: odd.map((r): FuzzRequest => build('odd path', r.method, r.path, r.body, r.headers)),
      weight: 1,
    },
  );
}

function build(
  label: string,
  method: string,
  path: string,
  body: unknown,
  h: { auth: string | undefined; type: string; enc: Encoding; reqId: string | undefined },
): FuzzRequest {
  const headers: Record<string, string> = {};
  if (h.auth !== undefined) headers.authorization = h.auth;
  if (h.type) headers['content-type'] = h.type;
  if (h.reqId !== undefined) headers['x-request-id'] = h.reqId;
  const hasBody = body !== undefined && method !== 'GET' && method !== 'HEAD';
  if (!hasBody) return { label, method, path, headers };
  if (h.enc.header) headers['content-encoding'] = h.enc.header;
  return { label, method, path, headers, body: h.enc.encode(serialize(body)) };
}

export interface FuzzOutcome {
  status: number;
  ms: number;
  /** Why the answer breaks the contract, if it does. */
  problem?: string;
}

const ERROR_KEYS = new Set(['success', 'error', 'code', 'details']);

/** Send one request; judge status, time and (for errors) the body's shape. */
export async function sendFuzz(
  base: string,
  r: FuzzRequest,
  dispatcher: Dispatcher,
  boundMs: number,
): Promise<FuzzOutcome> {
  const started = Date.now();
  let status: number;
  let text: string;
  let type: string;
  try {
    const res = await request(`${base}${r.path}`, {
      method: r.method as Dispatcher.HttpMethod,
      headers: r.headers,
      ...(r.body ? { body: r.body } : {}),
      dispatcher,
      headersTimeout: boundMs,
      bodyTimeout: boundMs,
    });
    status = res.statusCode;
    type = String(res.headers['content-type'] ?? '');
    text = await res.body.text();
  } catch (err) {
    return { status: 0, ms: Date.now() - started, problem: `no answer: ${(err as Error).message}` };
  }
  const ms = Date.now() - started;
  if (status >= 500) return { status, ms, problem: `${status}: ${text.slice(0, 300)}` };
  if (ms > boundMs) return { status, ms, problem: `answered after ${ms} ms` };
  if (status >= 400 && r.method !== 'HEAD') {
    if (!type.includes('application/json'))
      return { status, ms, problem: `error not JSON (${type}): ${text.slice(0, 200)}` };
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return { status, ms, problem: `error body is not JSON: ${text.slice(0, 200)}` };
    }
    const extra = Object.keys(body).filter((k) => !ERROR_KEYS.has(k));
    if (
      body.success !== false ||
      typeof body.error !== 'string' ||
      !body.error ||
      typeof body.code !== 'string' ||
      !/^[A-Z][A-Z_]+$/.test(body.code) ||
      extra.length > 0 ||
      (body.details !== undefined && (typeof body.details !== 'object' || body.details === null))
    ) {
      return { status, ms, problem: `error shape: ${text.slice(0, 300)}` };
    }
  }
  return { status, ms };
}
