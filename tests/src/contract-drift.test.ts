import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CLIENT_TYPES,
  generateClientTypes,
  type JsonSchema,
  namedSchema,
  openApiDocument,
} from '../../scripts/client-types';

/**
 * The clients cannot drift from the response contract (services/gateway/src/contract/responses.ts,
 * on the document contract in packages/queues/src/document.contract.ts): both are checked against
 * the OpenAPI document the gateway serves, generated in-process here.
 */
const ROOT = join(__dirname, '../..');
const doc = openApiDocument();

describe('contract drift', () => {
  it("the Node client's response types are the ones generated from /v1/openapi.json", () => {
    const committed = readFileSync(join(ROOT, 'packages/client-node/src/api-responses.ts'), 'utf8');
    // On failure: pnpm exec tsx scripts/client-types.ts, and review the diff of api-responses.ts.
    expect(committed.trimEnd()).toBe(generateClientTypes(doc));
  });

  /** Python TypedDict -> the OpenAPI schema it types (a CLIENT_TYPES name). */
  const PYTHON_TYPES: Record<string, string> = {
    PageMetadata: 'PageMetadata',
    ScrapeData: 'ScrapedDocument',
    ScrapeResponse: 'ScrapeResponse',
    BatchStartResponse: 'BatchStartResponse',
    BatchResult: 'BatchResult',
    BatchStatus: 'BatchStatus',
    BatchCancelResponse: 'BatchCancelResponse',
    CrawlStartResponse: 'CrawlStartResponse',
    CrawlSummary: 'CrawlCancelResponse',
    CrawlStatus: 'CrawlStatus',
    CrawlPage: 'CrawledPage',
    CrawlFailedPage: 'FailedPage',
    MapResponse: 'MapResponse',
    SearchResult: 'SearchResult',
    SearchResponse: 'SearchResponse',
    ExtractResponse: 'ExtractResponseBody',
    ExtractUsage: 'ExtractUsage',
    Monitor: 'Monitor',
    MonitorSummary: 'MonitorSummary',
    MonitorDetail: 'MonitorDetail',
    MonitorChange: 'MonitorChange',
    MonitorCheck: 'MonitorCheck',
    IrrelevantChange: 'IrrelevantChange',
    WebhookDelivery: 'WebhookDelivery',
    MonitorCreateResponse: 'MonitorResponse',
    MonitorResponse: 'MonitorCancelResponse',
    MonitorListResponse: 'MonitorListResponse',
    MonitorDetailResponse: 'MonitorDetailResponse',
    WebhookSecretResponse: 'WebhookSecretResponse',
    AccountResponse: 'AccountResponse',
    Account: 'Account',
    AccountPlan: 'AccountPlan',
    RateLimit: 'RateLimit',
    UsageResponse: 'UsageResponse',
    Usage: 'Usage',
    UsageDay: 'UsageDay',
    UsageTotals: 'UsageTotals',
    LedgerResponse: 'LedgerResponse',
    LedgerEntry: 'LedgerEntry',
    KeyListResponse: 'KeyListResponse',
    ApiKeyInfo: 'ApiKeyInfo',
    KeyCreateResponse: 'KeyCreateResponse',
    CreatedKey: 'CreatedKey',
    KeyUpdateResponse: 'KeyUpdateResponse',
    KeyRevokeResponse: 'KeyRevokeResponse',
    RevokedKey: 'RevokedKey',
    BatchListResponse: 'BatchListResponse',
    BatchSummary: 'BatchSummary',
    BatchResultsResponse: 'BatchResultsResponse',
    BatchResultRow: 'BatchResultRow',
    BatchResultResponse: 'BatchResultResponse',
    BatchResultDetail: 'BatchResultDetail',
    CrawlListResponse: 'CrawlListResponse',
    CrawlListItem: 'CrawlSummary',
    CrawlResultsResponse: 'CrawlResultsResponse',
    CrawlResultRow: 'CrawlResultRow',
    CrawlResultResponse: 'CrawlResultResponse',
    CrawlResultDetail: 'CrawlResultDetail',
  };

  /** JSON types a schema allows, coarsely: enums and consts count as their values' type. */
  const jsonTypes = (s: JsonSchema): string[] => {
    const out = new Set<string>();
    const add = (x: JsonSchema): void => {
      for (const a of x.anyOf ?? []) add(a);
      for (const v of x.const !== undefined ? [x.const] : (x.enum ?? []))
        out.add(v === null ? 'null' : typeof v === 'number' ? 'number' : typeof v);
      for (const t of Array.isArray(x.type) ? x.type : x.type ? [x.type] : [])
        out.add(t === 'integer' ? 'number' : t);
    };
    add(s);
    return [...out].sort();
  };

  it("the Python client's TypedDicts have the contract's keys, optionality and value types", () => {
    const script = [
      'import json, sys, typing',
      'sys.path.insert(0, sys.argv[1])',
      'from wcs_client import _types as t',
      'def kinds(tp):',
      '    o = typing.get_origin(tp)',
      '    if o is typing.Union: return set().union(*(kinds(a) for a in typing.get_args(tp)))',
      '    if o is typing.Literal: return {"null" if v is None else "boolean" if isinstance(v, bool)',
      '        else "number" if isinstance(v, (int, float)) else "string" for v in typing.get_args(tp)}',
      '    if o in (list, typing.List): return {"array"}',
      '    if o in (dict, typing.Dict) or typing.is_typeddict(tp): return {"object"}',
      '    return {{str: "string", int: "number", float: "number", bool: "boolean", type(None): "null",',
      '        typing.Any: "any"}.get(tp, repr(tp))}',
      'out = {}',
      'for n in sys.argv[2:]:',
      '    c = getattr(t, n)',
      '    out[n] = {"required": sorted(c.__required_keys__), "optional": sorted(c.__optional_keys__),',
      '        "types": {k: sorted(kinds(v)) for k, v in typing.get_type_hints(c).items()}}',
      'print(json.dumps(out))',
    ].join('\n');
    const out = execFileSync(
      '/usr/bin/python3',
      ['-c', script, join(ROOT, 'packages/client-python/src'), ...Object.keys(PYTHON_TYPES)],
      { encoding: 'utf8' },
    );
    const python = JSON.parse(out) as Record<
      string,
      { required: string[]; optional: string[]; types: Record<string, string[]> }
    >;
    const drift: string[] = [];
    for (const [py, name] of Object.entries(PYTHON_TYPES)) {
      const entry = CLIENT_TYPES.find((e) => e[0] === name);
      if (!entry) throw new Error(`no CLIENT_TYPES entry ${name}`);
      const schema = namedSchema(doc, entry);
      const required = [...(schema.required ?? [])].sort();
      const optional = Object.keys(schema.properties ?? {})
        .filter((k) => !required.includes(k))
        .sort();
      const got = python[py]!;
      for (const k of required)
        if (!got.required.includes(k)) drift.push(`${py}.${k}: the contract always sends it (${name})`);
      for (const k of optional)
        if (!got.optional.includes(k)) drift.push(`${py}.${k}: the contract may leave it out (${name})`);
      for (const k of [...got.required, ...got.optional])
        if (!required.includes(k) && !optional.includes(k))
          drift.push(`${py}.${k}: not in the contract (${name})`);
      for (const [k, prop] of Object.entries(schema.properties ?? {})) {
        const want = jsonTypes(prop).join('|');
        const have = (got.types[k] ?? []).join('|');
        if (have && have !== 'any' && have !== want)
          drift.push(`${py}.${k}: ${have}, the contract says ${want}`);
      }
    }
    expect(drift).toEqual([]);
  });
});
