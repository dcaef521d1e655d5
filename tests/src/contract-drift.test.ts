import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_TYPES, generateClientTypes, namedSchema, openApiDocument } from '../../scripts/client-types';

/**
 * The clients cannot drift from the response contract (services/gateway/src/openapi/responses.ts,
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
    CrawlStartResponse: 'CrawlStartResponse',
    CrawlSummary: 'CrawlCancelResponse',
    CrawlStatus: 'CrawlStatus',
    CrawlPage: 'CrawledPage',
    CrawlFailedPage: 'FailedPage',
    MapResponse: 'MapResponse',
    SearchResult: 'SearchResult',
    SearchResponse: 'SearchResponse',
    ExtractResponse: 'ExtractResponseBody',
    Monitor: 'Monitor',
    MonitorSummary: 'MonitorSummary',
    MonitorDetail: 'MonitorDetail',
    MonitorChange: 'MonitorChange',
    MonitorCheck: 'MonitorCheck',
    WebhookDelivery: 'WebhookDelivery',
    MonitorCreateResponse: 'MonitorResponse',
    MonitorResponse: 'MonitorCancelResponse',
    MonitorListResponse: 'MonitorListResponse',
    MonitorDetailResponse: 'MonitorDetailResponse',
    WebhookSecretResponse: 'WebhookSecretResponse',
  };

  it("the Python client's TypedDicts have the contract's keys, required and optional alike", () => {
    const script = [
      'import json, sys',
      'sys.path.insert(0, sys.argv[1])',
      'from wcs_client import _types as t',
      'print(json.dumps({n: {"required": sorted(getattr(t, n).__required_keys__),',
      '  "optional": sorted(getattr(t, n).__optional_keys__)} for n in sys.argv[2:]}))',
    ].join('\n');
    const out = execFileSync(
      '/usr/bin/python3',
      ['-c', script, join(ROOT, 'packages/client-python/src'), ...Object.keys(PYTHON_TYPES)],
      { encoding: 'utf8' },
    );
    const python = JSON.parse(out) as Record<string, { required: string[]; optional: string[] }>;
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
    }
    expect(drift).toEqual([]);
  });
});
