/**
 * The clients' response types, generated from the OpenAPI document (which the gateway generates
 * from the zod response contract, services/gateway/src/contract/responses.ts).
 *
 *   pnpm exec tsx scripts/client-types.ts          rewrite packages/client-node/src/api-responses.ts
 *
 * tests/src/contract-drift.test.ts regenerates it in-process and fails when the committed file
 * differs, and checks the Python client's TypedDicts against the same document.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../services/gateway/src/openapi/openapi.document';
import { OPERATIONS } from '../services/gateway/src/openapi/operations';

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
};

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content: Record<string, { schema: JsonSchema }> }> }>
  >;
};

/** The named response types: name -> [path, method, status, ...property steps ('[]' = array items)]. */
export const CLIENT_TYPES: Array<[string, string, string, string, ...string[]]> = [
  ['ScrapeResponse', '/v1/scrape', 'post', '200'],
  ['ScrapedDocument', '/v1/scrape', 'post', '200', 'data'],
  ['PageMetadata', '/v1/scrape', 'post', '200', 'data', 'metadata'],
  ['StructuredDocument', '/v1/scrape', 'post', '200', 'data', 'json'],
  ['StructuredMetadata', '/v1/scrape', 'post', '200', 'data', 'json', 'metadata'],
  ['StructuredBlock', '/v1/scrape', 'post', '200', 'data', 'json', 'blocks', '[]'],
  ['BatchStartResponse', '/v1/batch/scrape', 'post', '202'],
  ['BatchStatus', '/v1/batch/scrape/{id}', 'get', '200'],
  ['BatchResult', '/v1/batch/scrape/{id}', 'get', '200', 'results', '[]'],
  ['BatchCancelResponse', '/v1/batch/scrape/{id}', 'delete', '200'],
  ['CrawlStartResponse', '/v1/crawl', 'post', '202'],
  ['CrawlStatus', '/v1/crawl/{id}', 'get', '200'],
  ['CrawledPage', '/v1/crawl/{id}', 'get', '200', 'pages', '[]'],
  ['FailedPage', '/v1/crawl/{id}', 'get', '200', 'failedPages', '[]'],
  ['CrawlCancelResponse', '/v1/crawl/{id}', 'delete', '200'],
  ['SearchResponse', '/v1/search', 'post', '200'],
  ['SearchResult', '/v1/search', 'post', '200', 'data', '[]'],
  ['MapResponse', '/v1/map', 'post', '200'],
  ['ExtractResponseBody', '/v1/extract', 'post', '200'],
  ['ExtractUsage', '/v1/extract', 'post', '200', 'usage'],
  ['MonitorResponse', '/v1/monitor', 'post', '201'],
  ['Monitor', '/v1/monitor', 'post', '201', 'data'],
  ['MonitorListResponse', '/v1/monitor', 'get', '200'],
  ['MonitorSummary', '/v1/monitor', 'get', '200', 'data', '[]'],
  ['MonitorDetailResponse', '/v1/monitor/{id}', 'get', '200'],
  ['MonitorDetail', '/v1/monitor/{id}', 'get', '200', 'data'],
  ['MonitorChange', '/v1/monitor/{id}', 'get', '200', 'data', 'changes', '[]'],
  ['MonitorCheck', '/v1/monitor/{id}', 'get', '200', 'data', 'checks', '[]'],
  ['IrrelevantChange', '/v1/monitor/{id}', 'get', '200', 'data', 'irrelevantChanges', '[]'],
  ['WebhookDelivery', '/v1/monitor/{id}', 'get', '200', 'data', 'webhookDeliveries', '[]'],
  ['MonitorCancelResponse', '/v1/monitor/{id}', 'delete', '200'],
  ['WebhookSecretResponse', '/v1/webhook/secret', 'get', '200'],
  ['AccountResponse', '/v1/account', 'get', '200'],
  ['Account', '/v1/account', 'get', '200', 'data'],
  ['AccountPlan', '/v1/account', 'get', '200', 'data', 'plan'],
  ['RateLimit', '/v1/account', 'get', '200', 'data', 'rateLimit'],
  ['UsageResponse', '/v1/usage', 'get', '200'],
  ['Usage', '/v1/usage', 'get', '200', 'data'],
  ['UsageDay', '/v1/usage', 'get', '200', 'data', 'days', '[]'],
  ['UsageTotals', '/v1/usage', 'get', '200', 'data', 'totals'],
  ['LedgerResponse', '/v1/ledger', 'get', '200'],
  ['LedgerEntry', '/v1/ledger', 'get', '200', 'data', '[]'],
  ['KeyListResponse', '/v1/keys', 'get', '200'],
  ['ApiKeyInfo', '/v1/keys', 'get', '200', 'data', '[]'],
  ['KeyCreateResponse', '/v1/keys', 'post', '201'],
  ['CreatedKey', '/v1/keys', 'post', '201', 'data'],
  ['KeyUpdateResponse', '/v1/keys/{id}', 'patch', '200'],
  ['CapabilitiesResponse', '/v1/capabilities', 'get', '200'],
  ['Capabilities', '/v1/capabilities', 'get', '200', 'data'],
  ['KeyRevokeResponse', '/v1/keys/{id}', 'delete', '200'],
  ['RevokedKey', '/v1/keys/{id}', 'delete', '200', 'data'],
  ['BatchListResponse', '/v1/batch/scrape', 'get', '200'],
  ['BatchSummary', '/v1/batch/scrape', 'get', '200', 'data', '[]'],
  ['BatchResultsResponse', '/v1/batch/scrape/{id}/results', 'get', '200'],
  ['BatchResultRow', '/v1/batch/scrape/{id}/results', 'get', '200', 'data', '[]'],
  ['BatchResultResponse', '/v1/batch/scrape/{id}/results/{itemId}', 'get', '200'],
  ['BatchResultDetail', '/v1/batch/scrape/{id}/results/{itemId}', 'get', '200', 'data'],
  ['CrawlListResponse', '/v1/crawl', 'get', '200'],
  ['CrawlSummary', '/v1/crawl', 'get', '200', 'data', '[]'],
  ['CrawlResultsResponse', '/v1/crawl/{id}/results', 'get', '200'],
  ['CrawlResultRow', '/v1/crawl/{id}/results', 'get', '200', 'data', '[]'],
  ['CrawlResultResponse', '/v1/crawl/{id}/results/{pageId}', 'get', '200'],
  ['CrawlResultDetail', '/v1/crawl/{id}/results/{pageId}', 'get', '200', 'data'],
];

export function openApiDocument(): Doc {
  return buildOpenApiDocument(OPERATIONS) as unknown as Doc;
}

/** The schema a CLIENT_TYPES entry points at. */
export function namedSchema(doc: Doc, entry: (typeof CLIENT_TYPES)[number]): JsonSchema {
  const [name, path, method, status, ...steps] = entry;
  let s = doc.paths[path]?.[method]?.responses[status]?.content['application/json']?.schema;
  for (const step of steps) s = step === '[]' ? s?.items : s?.properties?.[step];
  if (!s) throw new Error(`${name}: nothing at ${[path, method, status, ...steps].join(' ')}`);
  return s;
}

const literal = (v: unknown): string =>
  typeof v === 'string' ? `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(v);

/** Without descriptions: two uses of one contract schema compare equal. */
const shape = (s: JsonSchema): string =>
  JSON.stringify(s, (k, v: unknown) => (k === 'description' || k === 'format' ? undefined : v));

export function generateClientTypes(doc: Doc = openApiDocument()): string {
  const named = CLIENT_TYPES.map((e) => ({ name: e[0], schema: namedSchema(doc, e) }));
  const byShape = new Map<string, string>();
  for (const n of named) if (!byShape.has(shape(n.schema))) byShape.set(shape(n.schema), n.name);

  const ts = (s: JsonSchema, indent: string): string => {
    const ref = byShape.get(shape(s));
    if (ref) return ref;
    if (s.const !== undefined) return literal(s.const);
    if (s.enum) return s.enum.map(literal).join(' | ');
    if (s.anyOf) return s.anyOf.map((x) => wrap(ts(x, indent))).join(' | ');
    if (Array.isArray(s.type)) return s.type.map((t) => ts({ ...s, type: t }, indent)).join(' | ');
    switch (s.type) {
      case 'string':
        return 'string';
      case 'integer':
      case 'number':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      case 'array':
        return `${wrap(ts(s.items ?? {}, indent))}[]`;
      case 'object':
        return objectBody(s, indent);
      default:
        return 'unknown';
    }
  };
  // An object literal is one type even when a property inside it is a union.
  const wrap = (t: string): string => (t.includes(' | ') && !t.startsWith('{') ? `(${t})` : t);
  const objectBody = (s: JsonSchema, indent: string): string => {
    const props = Object.entries(s.properties ?? {});
    const extra = s.additionalProperties;
    if (props.length === 0) {
      if (extra && typeof extra === 'object') return `{ [key: string]: ${ts(extra, indent)} }`;
      return extra === false ? 'Record<string, never>' : '{ [key: string]: unknown }';
    }
    const inner = `${indent}  `;
    const lines = props.map(([k, v]) => {
      const opt = s.required?.includes(k) ? '' : '?';
      const doc = v.description ? `${inner}/** ${v.description} */\n` : '';
      const line = `${inner}${k}${opt}: ${ts(v, inner)};`;
      // A long enum is written one member a line, as the formatter (Biome, 110 columns) writes it.
      if (line.length > 110 && v.enum && !byShape.has(shape(v)))
        return `${doc}${inner}${k}${opt}:\n${v.enum.map((e) => `${inner}  | ${literal(e)}`).join('\n')};`;
      return `${doc}${line}`;
    });
    return `{\n${lines.join('\n')}\n${indent}}`;
  };

  const out = [
    '// Generated by scripts/client-types.ts from the OpenAPI document (GET /v1/openapi.json),',
    '// which the gateway generates from its zod response contract. Do not edit: run',
    '// `pnpm exec tsx scripts/client-types.ts`. tests/src/contract-drift.test.ts fails when stale.',
    '',
  ];
  for (const n of named) {
    if (byShape.get(shape(n.schema)) !== n.name) continue;
    if (n.schema.description) out.push(`/** ${n.schema.description} */`);
    out.push(`export interface ${n.name} ${objectBody(n.schema, '')}`, '');
  }
  return out.join('\n').replace(/\n$/, '');
}

if (require.main === module) {
  const target = join(__dirname, '../packages/client-node/src/api-responses.ts');
  writeFileSync(target, `${generateClientTypes()}\n`);
  console.log(`wrote ${target}`);
}
