/**
 * What the official clients cost on top of the HTTP API, run against a live service (gateway and
 * workers in their own process, started by the wrapper):
 *   - POST /v1/scrape via plain fetch vs the Node client, at concurrency 1 and 8 (p50, pages/s);
 *   - the same via plain httpx vs the Python client (sync);
 *   - one service_scrape tool call through service-mcp over stdio (p50);
 *   - batchScrapeAndWait of 50 URLs with the default 2 s poll vs a 200 ms poll (wall time);
 *   - the Firecrawl JS SDK (pinned in tests/) on the Firecrawl-compatible API vs the Node client on
 *     the native one, same pages, same run: scrape and map (p50, p95; rows interleaved call by
 *     call), with plain fetch to /firecrawl/v2/* in between so the SDK's share and the compat
 *     layer's share show apart.
 *
 *   pnpm bench:clients [--calls 100] [--firecrawl-only]
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ServiceClient } from '@wcs/client-node';
import { loadEnv } from '@wcs/config';
import { z } from 'zod';
import { percentile, pool, ROOT } from './bench-utils';

const env = loadEnv(
  z.object({
    SERVICE_BASE_URL: z.string().url(),
    SERVICE_API_KEY: z.string(),
    WCS_EXAMPLE_SITE: z.string().url(),
  }),
);
const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '100' },
    // Only the Firecrawl SDK phase, for a quick comparison.
    'firecrawl-only': { type: 'boolean', default: false },
  },
});
const CALLS = Number(values.calls);
const urls = Array.from({ length: CALLS }, (_, i) => `${env.WCS_EXAMPLE_SITE}/article/${i % 5}`);

interface Figures {
  p50: number;
  p95: number;
  perSecond: number;
}

async function measure(concurrency: number, call: (url: string) => Promise<void>): Promise<Figures> {
  await call(urls[0]!); // warm the connection
  const times: number[] = [];
  const started = performance.now();
  await pool(urls, concurrency, async (url) => {
    const t = performance.now();
    await call(url);
    times.push(performance.now() - t);
  });
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), perSecond: CALLS / elapsed };
}

const fmt = (f: Figures) =>
  `p50 ${f.p50.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms, ${f.perSecond.toFixed(0)} pages/s`;

async function rawScrape(url: string): Promise<void> {
  const res = await fetch(`${env.SERVICE_BASE_URL}/v1/scrape`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${env.SERVICE_API_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ url }),
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  await res.json();
}

/** The slice of the Firecrawl SDK's v2 client this bench calls (the package lives in tests/). */
interface FirecrawlSdk {
  scrape(url: string, o?: { formats?: string[] }): Promise<{ markdown?: string }>;
  map(url: string, o?: { limit?: number }): Promise<{ links: Array<{ url: string }> }>;
}
type FirecrawlCtor = new (o: { apiKey: string; apiUrl: string }) => FirecrawlSdk;

async function compatPost(key: string, pathname: string, body: unknown): Promise<void> {
  const res = await fetch(`${env.SERVICE_BASE_URL}/firecrawl${pathname}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`HTTP ${res.status} on /firecrawl${pathname}`);
  await res.json();
}

type Call = (url: string) => Promise<void>;

/**
 * Firecrawl SDK on /firecrawl vs the Node client on /v1: same pages, same run. Each row
 * runs under a fresh key of the same account (the rate limit counts per key, and 12 rows of CALLS
 * would pass it in one window); a warm-up pass of every row first, so no row pays for a cold start.
 */
async function firecrawlSdkPhase(client: ServiceClient): Promise<void> {
  const fromTests = createRequire(path.join(ROOT, 'tests/package.json'));
  const { Firecrawl } = fromTests('@mendable/firecrawl-js') as { Firecrawl: FirecrawlCtor };
  const apiUrl = `${env.SERVICE_BASE_URL}/firecrawl`;
  const site = `${env.WCS_EXAMPLE_SITE}/`;
  const rows: Array<[string, (key: string) => Call]> = [
    [
      'scrape  Node client   /v1/scrape          ',
      (k) => {
        const c = new ServiceClient({ apiKey: k, baseUrl: env.SERVICE_BASE_URL });
        return async (u) => void (await c.scrape(u));
      },
    ],
    ['scrape  fetch         /firecrawl/v2/scrape', (k) => (u) => compatPost(k, '/v2/scrape', { url: u })],
    [
      'scrape  Firecrawl SDK /firecrawl/v2/scrape',
      (k) => {
        const sdk = new Firecrawl({ apiKey: k, apiUrl });
        return async (u) => void (await sdk.scrape(u));
      },
    ],
    [
      'map     Node client   /v1/map             ',
      (k) => {
        const c = new ServiceClient({ apiKey: k, baseUrl: env.SERVICE_BASE_URL });
        return async () => void (await c.map(site, { max_urls: 100 }));
      },
    ],
    [
      'map     fetch         /firecrawl/v2/map   ',
      (k) => () => compatPost(k, '/v2/map', { url: site, limit: 100 }),
    ],
    [
      'map     Firecrawl SDK /firecrawl/v2/map   ',
      (k) => {
        const sdk = new Firecrawl({ apiKey: k, apiUrl });
        return async () => void (await sdk.map(site, { limit: 100 }));
      },
    ],
  ];
  const freshCall = async (make: (key: string) => Call) => make((await client.createKey()).data.key);
  const calls = await Promise.all(rows.map(([, make]) => freshCall(make)));
  for (const call of calls) await pool(urls.slice(0, 20), 4, call); // warm-up, not measured
  console.log(`Firecrawl SDK vs Node client, ${CALLS} calls each, rows interleaved call by call`);
  for (const c of [1, 8]) {
    const figures = await measureInterleaved(c, calls);
    rows.forEach(([label], i) => {
      const f = figures[i] as Figures;
      console.log(`  concurrency ${c}: ${label} p50 ${f.p50.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms`);
    });
  }
}

/**
 * Every URL goes through every row in turn (rows rotate which goes first), so a load spike on a
 * shared machine hits all rows alike instead of whichever row ran during it.
 */
async function measureInterleaved(concurrency: number, calls: Call[]): Promise<Figures[]> {
  const times = calls.map(() => [] as number[]);
  await pool(
    urls.map((u, i) => [u, i] as const),
    concurrency,
    async ([url, i]) => {
      for (let r = 0; r < calls.length; r++) {
        const k = (r + i) % calls.length;
        const t0 = performance.now();
        await (calls[k] as Call)(url);
        (times[k] as number[]).push(performance.now() - t0);
      }
    },
  );
  return times.map((ts) => {
    ts.sort((a, b) => a - b);
    return { p50: percentile(ts, 50), p95: percentile(ts, 95), perSecond: 0 };
  });
}

const PYTHON_BENCH = `
import json, os, statistics, sys, time
import httpx
from wcs_client import ServiceClient
urls = json.loads(sys.argv[1])
base, key = os.environ["SERVICE_BASE_URL"], os.environ["SERVICE_API_KEY"]
def run(call):
    call(urls[0])
    times = []
    for u in urls:
        t = time.perf_counter(); call(u); times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)
def raw_scrape(h, u):
    r = h.post(f"{base}/v1/scrape", json={"url": u})
    r.raise_for_status()
    return r.json()
with httpx.Client(headers={"Authorization": f"Bearer {key}"}, timeout=60) as h:
    raw = run(lambda u: raw_scrape(h, u))
with ServiceClient() as c:
    client = run(lambda u: c.scrape(u))
print(json.dumps({"raw": raw, "client": client}))
`;

async function main(): Promise<void> {
  const client = new ServiceClient();
  if (values['firecrawl-only']) return firecrawlSdkPhase(client);
  const clientScrape = async (url: string) => {
    await client.scrape(url);
  };
  console.log(`POST /v1/scrape, ${CALLS} calls each, against ${env.SERVICE_BASE_URL}`);
  for (const c of [1, 8]) {
    const raw = await measure(c, rawScrape);
    const sdk = await measure(c, clientScrape);
    console.log(`  concurrency ${c}: fetch       ${fmt(raw)}`);
    console.log(
      `  concurrency ${c}: Node client ${fmt(sdk)}  (p50 overhead ${(sdk.p50 - raw.p50).toFixed(2)} ms)`,
    );
  }

  const py = spawnSync('/usr/bin/python3', ['-c', PYTHON_BENCH, JSON.stringify(urls)], {
    env: { ...process.env, PYTHONPATH: path.join(ROOT, 'packages/client-python/src') },
    encoding: 'utf8',
  });
  if (py.status === 0) {
    const r = JSON.parse(py.stdout) as { raw: number; client: number };
    console.log(
      `  concurrency 1: httpx ${r.raw.toFixed(1)} ms p50, Python client ${r.client.toFixed(1)} ms p50 (overhead ${(r.client - r.raw).toFixed(2)} ms)`,
    );
  } else {
    console.log(`  Python: skipped (${py.stderr.trim().split('\n').at(-1)})`);
  }

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(ROOT, 'packages/mcp-server/dist/main.js')],
    env: {
      PATH: process.env.PATH ?? '',
      SERVICE_API_KEY: env.SERVICE_API_KEY,
      SERVICE_BASE_URL: env.SERVICE_BASE_URL,
    },
  });
  const mcp = new Client({ name: 'bench', version: '0' });
  await mcp.connect(transport);
  const viaMcp = await measure(1, async (url) => {
    const r = await mcp.callTool({ name: 'service_scrape', arguments: { url } });
    if (r.isError) throw new Error(JSON.stringify(r.content));
  });
  await mcp.close();
  console.log(`  concurrency 1: service-mcp service_scrape ${fmt(viaMcp)}`);

  const batchUrls = Array.from({ length: 50 }, (_, i) => `${env.WCS_EXAMPLE_SITE}/article/${i % 5}?n=${i}`);
  for (const pollIntervalMs of [2_000, 200]) {
    const t = performance.now();
    const done = await client.batchScrapeAndWait(batchUrls, { pollIntervalMs });
    const secs = (performance.now() - t) / 1000;
    console.log(
      `batchScrapeAndWait 50 URLs, poll ${pollIntervalMs} ms: ${secs.toFixed(2)} s (${done.completed} done, ${done.failed} failed)`,
    );
  }

  await firecrawlSdkPhase(client);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
