/**
 * Request fuzzer: schema-guided and hostile bodies, headers and paths against every operation of
 * /v1/openapi.json plus the open and admin surfaces, on a full stack (every worker running) whose
 * only targets are a local fixture site and a fake model server. Asserts: no 5xx, every answer
 * within its bound, every error in the one shape, and /healthz healthy afterwards.
 * Seeded and a few thousand requests by default; FUZZ_RUNS / FUZZ_SEED widen or vary the run.
 */
import net from 'node:net';
import { loadEnv } from '@wcs/config';
import { type FakeLlmServer, type FixtureSite, startFakeAnthropic, startFixtureSite } from '@wcs/testing';
import fc from 'fast-check';
import { Agent } from 'undici';
import { z } from 'zod';
import {
  type FuzzOutcome,
  type FuzzRequest,
  fuzzRequest,
  type OpenApiDoc,
  operationsOf,
  sendFuzz,
} from './fuzz-requests';
import { createTestAccount, type Stack, startStack, type TestAccount } from './harness';

const fuzzEnv = loadEnv(
  z.object({
    FUZZ_RUNS: z.coerce.number().int().min(1).default(2_000),
    FUZZ_SEED: z.coerce.number().int().default(20_261_124),
  }),
);
/** Longest a fuzzed request may take: valid jobs here are small local pages. */
const BOUND_MS = 30_000;
const CONCURRENCY = 8;

let stack: Stack;
let site: FixtureSite;
let model: FakeLlmServer;
let account: TestAccount;
let agent: Agent;

beforeAll(async () => {
  site = await startFixtureSite({ pages: 4, tree: { branching: 2, depth: 1 } });
  model = await startFakeAnthropic(() => ({ data: {} }));
  stack = await startStack({
    crawlWorker: true,
    mapWorker: true,
    extractWorker: true,
    monitorScheduler: true,
    webhookDispatcher: true,
    env: {
      RATE_LIMIT_FREE: '100000000',
      ANTHROPIC_API_KEY: 'sk-ant-fuzz',
      ANTHROPIC_BASE_URL: model.url,
      EXTRACT_MODEL: 'claude-fake',
      EXTRACT_MODEL_MAX_RETRIES: '0',
      FETCH_TIMEOUT_MS: '5000',
    },
  });
  account = await createTestAccount({ credits: 10_000_000 });
  agent = new Agent({ connections: CONCURRENCY * 2 });
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await stack?.close();
  await model?.close();
  await site?.close();
}, 60_000);

async function pool<T, R>(items: T[], n: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await run(items[i] as T);
      }
    }),
  );
  return out;
}

describe('request fuzzer', () => {
  it(
    'no 5xx, no hang, one error shape, healthy afterwards',
    async () => {
      const doc = (await (await fetch(`${stack.url}/v1/openapi.json`)).json()) as OpenApiDoc;
      const ops = operationsOf(doc);
      expect(ops.length).toBeGreaterThanOrEqual(14);
      const requests = fc.sample(
        fuzzRequest(ops, {
          siteUrl: site.url,
          apiKey: account.apiKey,
          adminToken: stack.env.ADMIN_TOKEN ?? '',
        }),
        { seed: fuzzEnv.FUZZ_SEED, numRuns: fuzzEnv.FUZZ_RUNS },
      );
      const started = Date.now();
      const outcomes = await pool(requests, CONCURRENCY, (r) => sendFuzz(stack.url, r, agent, BOUND_MS));

      const byLabel = new Map<string, Map<number, number>>();
      const failures: Array<{ r: FuzzRequest; o: FuzzOutcome }> = [];
      outcomes.forEach((o, i) => {
        const r = requests[i] as FuzzRequest;
        const row = byLabel.get(r.label) ?? new Map<number, number>();
        row.set(o.status, (row.get(o.status) ?? 0) + 1);
        byLabel.set(r.label, row);
        if (o.problem) failures.push({ r, o });
      });
      const slowest = Math.max(...outcomes.map((o) => o.ms));
      const lines = [...byLabel.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(
          ([label, row]) =>
            `  ${label.padEnd(32)} ${[...row.entries()]
              .sort(([a], [b]) => a - b)
              .map(([s, n]) => `${s}×${n}`)
              .join(' ')}`,
        );
      console.log(
        [
          `request fuzzer: ${requests.length} requests tried (seed ${fuzzEnv.FUZZ_SEED}) against ${ops.length} operations + odd paths in ${Date.now() - started} ms; slowest answer ${slowest} ms; ${failures.length} broke the contract`,
          ...lines,
        ].join('\n'),
      );
      const shown = failures.slice(0, 8).map(({ r, o }) => ({
        problem: o.problem,
        method: r.method,
        path: r.path.slice(0, 200),
        headers: r.headers,
        body: r.body?.subarray(0, 300).toString('latin1'),
      }));
      expect(shown).toEqual([]);

      const health = await fetch(`${stack.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ ok: true, database: true, redis: true });
    },
    Math.max(240_000, fuzzEnv.FUZZ_RUNS * 100),
  );

  /** Bytes that undici would never send: framing mistakes a client (or an attacker) can make. */
  const RAW: Array<[string, (key: string) => string]> = [
    ['Content-Length shorter than the body', (k) => post(k, '{"url":"x"}', 'Content-Length: 4\r\n')],
    ['Content-Length longer than the body', (k) => post(k, '{"url":"x"}', 'Content-Length: 400\r\n')],
    ['Content-Length not a number', (k) => post(k, '{}', 'Content-Length: abc\r\n')],
    [
      'two different Content-Length headers',
      (k) => post(k, '{}', 'Content-Length: 2\r\nContent-Length: 3\r\n'),
    ],
    [
      'Transfer-Encoding and Content-Length',
      (k) => post(k, '2\r\n{}\r\n0\r\n\r\n', 'Transfer-Encoding: chunked\r\nContent-Length: 2\r\n'),
    ],
    ['broken chunk size', (k) => post(k, 'zz\r\n{}\r\n0\r\n\r\n', 'Transfer-Encoding: chunked\r\n')],
    ['chunked body cut short', (k) => post(k, '20\r\n{"url":', 'Transfer-Encoding: chunked\r\n')],
    ['header line without a colon', (k) => post(k, '{}', 'Content-Length: 2\r\nNoColonHere\r\n')],
    ['16 KB header', (k) => post(k, '{}', `Content-Length: 2\r\nX-Big: ${'b'.repeat(17_000)}\r\n`)],
    [
      'NUL byte in the path',
      (k) => `GET /v1/crawl/a\u0000b HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${k}\r\n\r\n`,
    ],
    [
      'absolute-form target',
      (k) =>
        `GET http://169.254.169.254/v1/monitor HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${k}\r\n\r\n`,
    ],
    ['HTTP/1.0 without Host', (k) => `GET /v1/monitor HTTP/1.0\r\nAuthorization: Bearer ${k}\r\n\r\n`],
    [
      'gzip body declared, plain sent',
      (k) => post(k, '{"url":"x"}', 'Content-Length: 11\r\nContent-Encoding: gzip\r\n'),
    ],
  ];

  function post(key: string, body: string, headers: string): string {
    return `POST /v1/scrape HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n${headers}\r\n${body}`;
  }

  /**
   * Write raw bytes and collect every status line: done 300 ms after the last byte received, when
   * the server closes, or after 3 s of silence (a server waiting for a declared body). No
   * half-close: Node drops in-flight answers of a client that has ended its side.
   */
  function raw(bytes: string): Promise<{ statuses: number[]; text: string }> {
    return new Promise((resolve) => {
      const socket = net.connect(stack.gateway.port, '127.0.0.1');
      let text = '';
      let timer = setTimeout(() => done(), 3_000);
      const done = () => {
        clearTimeout(timer);
        socket.destroy();
        const statuses = [...text.matchAll(/HTTP\/1\.[01] (\d{3})/g)].map((m) => Number(m[1]));
        resolve({ statuses, text });
      };
      socket.on('data', (d) => {
        text += d.toString('latin1');
        clearTimeout(timer);
        timer = setTimeout(done, 300);
      });
      socket.on('error', done);
      socket.on('close', done);
      socket.write(bytes);
    });
  }

  it('framing mistakes over a raw socket: 4xx or a closed connection, never 5xx', async () => {
    const seen: string[] = [];
    for (const [name, make] of RAW) {
      const { statuses, text } = await raw(make(account.apiKey));
      seen.push(
        `  ${name.padEnd(40)} ${statuses.join(',') || 'no answer (closed, or waiting for the declared body)'}`,
      );
      expect([name, statuses.filter((s) => s >= 500)]).toEqual([name, []]);
      // Where our handler answered (a JSON body), it is the one error shape.
      for (const m of text.matchAll(/\r\n\r\n(\{"success":false[^\r]*?\})(?=HTTP|$)/g)) {
        expect(JSON.parse(m[1] as string)).toEqual(
          expect.objectContaining({ success: false, error: expect.any(String), code: expect.any(String) }),
        );
      }
    }
    console.log(`raw framing cases: ${RAW.length}\n${seen.join('\n')}`);
    const health = await fetch(`${stack.url}/healthz`);
    expect(health.status).toBe(200);
  }, 120_000);
});

/** The probe's client mistakes, each pinned to its status, code and message. */
describe('client mistakes the probe found', () => {
  const POSTS = [
    '/v1/scrape',
    '/v1/batch/scrape',
    '/v1/crawl',
    '/v1/map',
    '/v1/extract',
    '/v1/search',
    '/v1/monitor',
  ];
  const send = async (path: string, body: string | Buffer, headers: Record<string, string> = {}) => {
    const res = await fetch(`${stack.url}${path}`, {
      method: 'POST',
      headers: { ...account.auth, 'content-type': 'application/json', ...headers },
      body,
    });
    return { status: res.status, body: (await res.json()) as { code: string; error: string } };
  };

  it('a body declared gzip or deflate that is not: 400 INVALID_JSON on every POST; unknown encoding 415', async () => {
    for (const path of POSTS) {
      for (const enc of ['gzip', 'deflate']) {
        const res = await send(path, '{"url":"x"}', { 'content-encoding': enc });
        expect([path, enc, res.status, res.body.code]).toEqual([path, enc, 400, 'INVALID_JSON']);
      }
      const unknown = await send(path, '{}', { 'content-encoding': 'compress' });
      expect([path, unknown.status, unknown.body.code]).toEqual([path, 415, 'UNSUPPORTED_CONTENT_TYPE']);
    }
  });

  it('a malformed percent escape in a path: 400 VALIDATION_FAILED', async () => {
    for (const path of ['/v1/crawl/%E0%A4%A', '/v1/batch/scrape/%E0%A4%A', '/v1/monitor/%']) {
      const res = await fetch(`${stack.url}${path}`, { headers: account.auth });
      expect([path, res.status, ((await res.json()) as { code: string }).code]).toEqual([
        path,
        400,
        'VALIDATION_FAILED',
      ]);
    }
  });

  it('nesting: an extract schema 4,000 deep names the schema limit; any body 100,000 deep names the body limit', async () => {
    const schema = `${'{"a":'.repeat(4_000)}"string"${'}'.repeat(4_000)}`;
    const extract = await send('/v1/extract', `{"url":"${site.url}/","schema":${schema}}`);
    expect(extract.status).toBe(400);
    expect(extract.body.error).toMatch(/^schema\.a\.a.*: nested deeper than 8 levels$/);
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    for (const path of POSTS) {
      const res = await send(path, `{"url":"${site.url}/","x":${deep}}`);
      expect([path, res.status, res.body.code]).toEqual([path, 400, 'VALIDATION_FAILED']);
      expect(res.body.error).toMatch(/nested deeper than 32 levels/);
    }
  });

  it('a lone UTF-16 surrogate anywhere in a body (fuzzer finding: search answered 502): 400 naming the field', async () => {
    for (const path of POSTS) {
      const res = await send(path, `{"url":"${site.url}/","query":"a\\ud800b"}`);
      expect([path, res.status, res.body.code]).toEqual([path, 400, 'VALIDATION_FAILED']);
      expect(res.body.error).toMatch(/^query: not valid Unicode/);
    }
  });

  it('a prompt over 10,000 characters is told the limit', async () => {
    const res = await send(
      '/v1/extract',
      JSON.stringify({ url: `${site.url}/`, prompt: 'p'.repeat(10_001) }),
    );
    expect(res).toEqual({
      status: 400,
      body: expect.objectContaining({
        code: 'VALIDATION_FAILED',
        error: 'prompt: must be at most 10,000 characters',
      }),
    });
  });

  it('duplicate batch item ids: 400 naming the duplicate', async () => {
    const items = [
      { id: 'a', url: `${site.url}/` },
      { id: 'b', url: `${site.url}/article/1` },
      { id: 'a', url: `${site.url}/article/2` },
    ];
    const res = await send('/v1/batch/scrape', JSON.stringify({ items }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(
      'items.2.id: duplicate id "a" (also items.0.id); ids must be unique within a batch',
    );
  });
});
