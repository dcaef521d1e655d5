/**
 * service-mcp end to end: the built dist/main.js as a child process, driven over stdio by the MCP
 * SDK's Client against the real service (client stack). Every tool is called; trimming,
 * `wait: false`, progress and `isError` results are checked.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, CallToolResultSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { type PageOptionsSite, startPageOptionsSite } from '@wcs/testing';
import { createTestAccount, pollUntil } from '../harness';
import { type ClientStack, FAKE_EXTRACTION, startClientStack } from './client-stack';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const SERVER_MAIN = path.join(REPO_ROOT, 'packages/mcp-server/dist/main.js');
const HOME_TITLE = 'Understanding Web Content Extraction';

const TOOL_REQUIRED: Record<string, string[]> = {
  service_scrape: ['url'],
  service_parse: [],
  service_crawl: ['url'],
  service_crawl_status: ['id'],
  service_extract: ['url'],
  service_map: ['url'],
  service_search: ['query'],
  service_monitor_create: ['url'],
  service_monitor_list: [],
  service_monitor_get: ['id'],
  service_monitor_update: ['id'],
  service_monitor_delete: ['id'],
  service_batch_scrape: ['urls'],
  service_batch_status: ['id'],
  service_account: [],
  service_capabilities: [],
};

interface McpSession {
  client: Client;
  stderr(): string; // everything the server wrote to stderr so far
  protocolErrors: Error[]; // what the SDK client reported (e.g. a non-JSON-RPC line on stdout)
  close(): Promise<void>;
}

const sessions: McpSession[] = [];

/** Starts `service-mcp` with exactly `env` (plus PATH) and connects the SDK client to it. */
async function startServer(env: Record<string, string>): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER_MAIN],
    env: { PATH: process.env.PATH ?? '', ...env },
    cwd: REPO_ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'mcp-server-e2e', version: '1.0.0' });
  const protocolErrors: Error[] = [];
  client.onerror = (err) => protocolErrors.push(err);
  await client.connect(transport);
  const session: McpSession = { client, stderr: () => stderr, protocolErrors, close: () => client.close() };
  sessions.push(session);
  return session;
}

async function callTool(
  session: McpSession,
  name: string,
  args: Record<string, unknown>,
  onprogress?: (p: Progress) => void,
): Promise<{ result: CallToolResult; text: string }> {
  const raw = await session.client.callTool({ name, arguments: args }, CallToolResultSchema, {
    ...(onprogress ? { onprogress } : {}),
    timeout: 55_000,
  });
  const result = CallToolResultSchema.parse(raw);
  const first = result.content[0];
  const text = first?.type === 'text' ? first.text : '';
  return { result, text };
}

/** Calls a tool that must succeed and parses its JSON answer (failures show the server's stderr). */
async function callOk<T = Record<string, unknown>>(
  session: McpSession,
  name: string,
  args: Record<string, unknown>,
  onprogress?: (p: Progress) => void,
): Promise<T> {
  const { result, text } = await callTool(session, name, args, onprogress);
  if (result.isError) {
    throw new Error(`${name} answered isError: ${text}\n--- server stderr ---\n${session.stderr()}`);
  }
  return JSON.parse(text) as T;
}

async function callError(session: McpSession, name: string, args: Record<string, unknown>): Promise<string> {
  const { result, text } = await callTool(session, name, args);
  if (!result.isError) throw new Error(`${name} should have failed, answered: ${text.slice(0, 500)}`);
  return text;
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

type TrimmedPage = { url: string; markdown: string };
type Failure = { url: string; error: string };
type Counts = Record<'total' | 'completed' | 'failed' | 'creditsUsed', number>;
type JobCounts = Counts & { id: string; status: string };
type TrimmedCrawl = JobCounts & { stopReason?: string; pages: TrimmedPage[]; failedPages: Failure[] };
type TrimmedBatch = JobCounts & { results: TrimmedPage[]; failures: Failure[] };
type PendingJob = { id: string; status: string; nextStep: string };

/** Every entry has exactly the keys url and markdown, both strings. */
function expectOnlyUrlAndMarkdown(entries: readonly TrimmedPage[]): void {
  for (const entry of entries) {
    expect(Object.keys(entry).sort()).toEqual(['markdown', 'url']);
    expect(Object.values(entry).map((v) => typeof v)).toEqual(['string', 'string']);
  }
}

let stack: ClientStack;
let mcp: McpSession;

beforeAll(async () => {
  if (!existsSync(SERVER_MAIN)) {
    throw new Error(`${SERVER_MAIN} is missing: run \`pnpm --filter service-mcp build\` first`);
  }
  stack = await startClientStack();
  mcp = await startServer({ SERVICE_API_KEY: stack.account.apiKey, SERVICE_BASE_URL: stack.baseUrl });
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(sessions.map((s) => s.close()));
  await stack?.close();
});

describe('service-mcp over stdio', () => {
  it('lists exactly the sixteen tools, each described, with an object input schema', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(TOOL_REQUIRED).sort());
    for (const tool of tools) {
      expect(tool.description?.length ?? 0).toBeGreaterThan(80);
      expect(tool.description).toMatch(/credit|Free/);
      expect(tool.inputSchema.type).toBe('object');
      expect([...(tool.inputSchema.required ?? [])].sort()).toEqual(TOOL_REQUIRED[tool.name]);
    }
    const crawlInputs = Object.keys(
      tools.find((t) => t.name === 'service_crawl')?.inputSchema.properties ?? {},
    );
    const expected = ['maxDepth', 'maxPages', 'includePaths', 'excludePaths', 'wait', 'timeoutSeconds'];
    expect(crawlInputs).toEqual(expect.arrayContaining(expected));
    expect(mcp.client.getServerVersion()?.name).toBe('service-mcp');
  });

  it('service_scrape returns the markdown and metadata, not the html', async () => {
    const page = await callOk(mcp, 'service_scrape', { url: `${stack.site.url}/` });
    expect(Object.keys(page).sort()).toEqual(['markdown', 'metadata']);
    expect(page.markdown).toContain(HOME_TITLE);
    expect((page.metadata as { title?: string }).title).toContain(HOME_TITLE);

    const html = await callOk(mcp, 'service_scrape', { url: `${stack.site.url}/`, format: 'html' });
    expect(Object.keys(html).sort()).toEqual(['html', 'metadata']);
    expect(html.html).toContain('<');
  });

  it('service_parse converts HTML text (or a local file) and refuses both or neither', async () => {
    const html =
      '<html><head><title>Local notes</title></head><body><main><h1>Local notes</h1><p>Kept on disk.</p></main></body></html>';
    const page = await callOk(mcp, 'service_parse', { html, formats: ['markdown', 'links'] });
    expect(Object.keys(page).sort()).toEqual(['links', 'markdown', 'metadata']);
    expect(page.markdown).toContain('# Local notes');
    expect((page.metadata as { sourceURL?: string }).sourceURL).toBe('file:///page.html');
    const text = await callError(mcp, 'service_parse', {});
    expect(text).toContain('exactly one of path and html');
  });

  it('service_crawl waits, reports progress and trims every page to url + markdown', async () => {
    const progress: Progress[] = [];
    const crawl = await callOk<TrimmedCrawl>(
      mcp,
      'service_crawl',
      { url: `${stack.site.url}/`, maxDepth: 1, maxPages: 3 },
      (p) => progress.push(p),
    );
    expect(crawl.status).toBe('done');
    expect(crawl.pages.length).toBeGreaterThanOrEqual(1);
    // Failed pages do not count against maxPages; at most maxPages of them are replaced.
    expect(crawl.pages.length).toBeLessThanOrEqual(3);
    expect(crawl.pages.length + crawl.failedPages.length).toBeLessThanOrEqual(6);
    expectOnlyUrlAndMarkdown(crawl.pages);
    expect(crawl.pages.find((p) => p.url === `${stack.site.url}/`)?.markdown).toContain(HOME_TITLE);
    expect(crawl.creditsUsed).toBe(crawl.completed);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.at(-1)?.progress).toBe(crawl.completed + crawl.failed);
  });

  it('service_crawl with wait: false returns the id; service_crawl_status follows it to done', async () => {
    const started = await callOk<PendingJob>(mcp, 'service_crawl', {
      url: `${stack.site.url}/article/0`,
      maxDepth: 1,
      maxPages: 2,
      wait: false,
    });
    expect(started.status).toBe('pending');
    expect(started.id).toEqual(expect.any(String));
    expect(started.nextStep).toContain('service_crawl_status');

    const done = await pollUntil(async () => {
      const status = await callOk<TrimmedCrawl>(mcp, 'service_crawl_status', { id: started.id });
      return status.status === 'done' || status.status === 'failed' ? status : undefined;
    }, 30_000);
    expect(done.status).toBe('done');
    expect(done.id).toBe(started.id);
    expect(done.pages.length).toBeGreaterThanOrEqual(1);
    expectOnlyUrlAndMarkdown(done.pages);
    expect(done.pages.map((p) => p.url)).toContain(`${stack.site.url}/article/0`);
  });

  it('service_batch_scrape prefixes bare domains with https:// and trims results', async () => {
    const port = await closedPort();
    const batch = await callOk<TrimmedBatch>(mcp, 'service_batch_scrape', {
      urls: [`${stack.site.url}/article/1`, `localhost:${port}/x`],
    });
    expect(batch.status).toBe('done');
    expect(batch).toMatchObject({ total: 2, completed: 1, failed: 1, creditsUsed: 1 });
    expectOnlyUrlAndMarkdown(batch.results);
    expect(batch.results[0]?.url).toBe(`${stack.site.url}/article/1`);
    expect(batch.results[0]?.markdown.length).toBeGreaterThan(100);
    expect(batch.failures).toEqual([
      { url: `https://localhost:${port}/x`, error: expect.any(String), code: expect.any(String) },
    ]);
  });

  it('service_batch_scrape with wait: false returns the id; service_batch_status follows it to done', async () => {
    const started = await callOk<PendingJob & { total: number }>(mcp, 'service_batch_scrape', {
      urls: [`${stack.site.url}/article/2`, `${stack.site.url}/article/3`],
      wait: false,
    });
    expect(started).toMatchObject({ status: 'pending', total: 2 });
    expect(started.nextStep).toContain('service_batch_status');

    const done = await pollUntil(async () => {
      const status = await callOk<TrimmedBatch>(mcp, 'service_batch_status', { id: started.id });
      return status.status === 'done' ? status : undefined;
    }, 30_000);
    expect(done).toMatchObject({ id: started.id, total: 2, completed: 2, failed: 0, failures: [] });
    expectOnlyUrlAndMarkdown(done.results);
    expect(done.results.map((r) => r.url).sort()).toEqual([
      `${stack.site.url}/article/2`,
      `${stack.site.url}/article/3`,
    ]);
  });

  it('a wait that runs out of time answers with the job id to poll, not an error', async () => {
    const answer = await callOk<PendingJob & { stillRunning: boolean }>(mcp, 'service_batch_scrape', {
      urls: [`${stack.site.url}/article/4?delay=3000`],
      timeoutSeconds: 1,
    });
    expect(answer.stillRunning).toBe(true);
    expect(answer.nextStep).toContain('service_batch_status');
    const done = await pollUntil(async () => {
      const status = await callOk<TrimmedBatch>(mcp, 'service_batch_status', { id: answer.id });
      return status.status === 'done' ? status : undefined;
    }, 30_000);
    expect(done.completed).toBe(1);
  });

  it('service_extract returns data shaped like the schema', async () => {
    const answer = await callOk<{ data: { title: string | null } }>(mcp, 'service_extract', {
      url: `${stack.site.url}/`,
      schema: { title: 'string' },
    });
    expect(answer.data).toEqual({ title: FAKE_EXTRACTION.title });
  });

  it('service_map lists the site, filtered by search', async () => {
    const all = await callOk<{ links: string[]; total: number }>(mcp, 'service_map', { url: stack.site.url });
    expect(all.links).toEqual(expect.arrayContaining([`${stack.site.url}/article/0`]));
    expect(all.total).toBe(all.links.length);

    const some = await callOk<{ links: string[] }>(mcp, 'service_map', {
      url: stack.site.url,
      search: 'article',
      max_urls: 3,
    });
    expect(some.links.length).toBeGreaterThan(0);
    expect(some.links.length).toBeLessThanOrEqual(3);
    expect(some.links[0]).toContain('/article');
  });

  it('service_search finds a page this account scraped', async () => {
    await callOk(mcp, 'service_scrape', { url: `${stack.site.url}/` });
    const found = await pollUntil(async () => {
      const answer = await callOk<{
        data: Array<{ url: string; markdown: string | null }>;
        creditsUsed: number;
      }>(mcp, 'service_search', { query: HOME_TITLE, num_results: 3 });
      return answer.data.length > 0 ? answer : undefined;
    }, 15_000);
    const hit = found.data.find((r) => r.url === `${stack.site.url}/`);
    expect(hit?.markdown).toContain(HOME_TITLE);
    expect(found.creditsUsed).toBe(2 * found.data.filter((r) => r.markdown !== null).length);
  });

  it('service_monitor_create / list / get / delete', async () => {
    const created = await callOk<{ data: { id: string; status: string; interval: string } }>(
      mcp,
      'service_monitor_create',
      {
        url: `${stack.site.url}/article/5`,
        interval: 'weekly',
        ignoreText: ['Last updated'],
        threshold: 0.1,
        goal: 'prices',
      },
    );
    expect(created.data).toMatchObject({
      status: 'active',
      interval: 'weekly',
      ignoreText: ['Last updated'],
      threshold: 0.1,
      goal: 'prices',
    });
    const id = created.data.id;
    const timed = await callOk<{ data: { id: string } }>(mcp, 'service_monitor_create', {
      url: `${stack.site.url}/article/6`,
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Paris',
      webhookUrl: `${stack.site.url}/hook`,
      webhookFormat: 'discord',
    });
    expect(timed.data).toMatchObject({
      interval: 'cron',
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Paris',
      webhookFormat: 'discord',
    });
    const moved = await callOk<{ data: Record<string, unknown> }>(mcp, 'service_monitor_update', {
      id: timed.data.id,
      interval: 'weekly',
      goal: 'opening hours',
    });
    expect(moved.data).toMatchObject({ interval: 'weekly', goal: 'opening hours' });
    expect(moved.data.cron).toBeUndefined();
    await callOk(mcp, 'service_monitor_delete', { id: timed.data.id });

    const list = await callOk<{ data: Array<{ id: string }>; total: number }>(mcp, 'service_monitor_list', {
      limit: 50,
    });
    expect(list.data.map((m) => m.id)).toContain(id);

    const detail = await callOk<{ data: { id: string; changes: unknown[]; checks: unknown[] } }>(
      mcp,
      'service_monitor_get',
      { id },
    );
    expect(detail.data.id).toBe(id);
    expect(Array.isArray(detail.data.changes)).toBe(true);

    const deleted = await callOk<{ data: { id: string; status: string } }>(mcp, 'service_monitor_delete', {
      id,
    });
    expect(deleted.data).toMatchObject({ id, status: 'cancelled' });
  });

  it('service_account reports balance, plan, 30-day usage per operation and the rate limit', async () => {
    const fresh = await createTestAccount({ plan: 'hobby', credits: 100 });
    const own = await startServer({ SERVICE_API_KEY: fresh.apiKey, SERVICE_BASE_URL: stack.baseUrl });
    type AccountAnswer = {
      accountId: string;
      balance: number;
      plan: { id: string; monthlyCredits: number };
      usedLast30Days: number;
      usageLast30Days: Record<string, number>;
      rateLimit: { limit: number; remaining: number; resetsAt: string };
    };
    const before = await callOk<AccountAnswer>(own, 'service_account', {});
    expect(Object.keys(before).sort()).toEqual(
      ['accountId', 'balance', 'plan', 'rateLimit', 'usageLast30Days', 'usedLast30Days'].sort(),
    );
    expect(before).toMatchObject({ accountId: fresh.accountId, balance: 100, usedLast30Days: 0 });
    expect(before.plan.id).toBe('hobby');
    expect(before.rateLimit.limit).toBeGreaterThan(0);

    await callOk(own, 'service_map', { url: stack.site.url });
    const after = await callOk<AccountAnswer>(own, 'service_account', {});
    expect(after).toMatchObject({ balance: 99, usedLast30Days: 1 });
    expect(after.usageLast30Days).toMatchObject({ map: 1, scrape: 0, total: 1 });
  });

  it("service_capabilities describes the deployment and the plan's rate limit, free", async () => {
    const fresh = await createTestAccount({ plan: 'hobby', credits: 3 });
    const own = await startServer({ SERVICE_API_KEY: fresh.apiKey, SERVICE_BASE_URL: stack.baseUrl });
    const caps = await callOk<{
      engines: { browser: boolean };
      extract: { configured: boolean };
      limits: { batchUrls: number; rateLimit: { plan: string; requests: number } };
      firecrawl: { routes: Array<{ method: string; path: string }> };
    }>(own, 'service_capabilities', {});
    expect(caps.limits.batchUrls).toBe(500);
    expect(caps.limits.rateLimit.plan).toBe('hobby');
    expect(caps.firecrawl.routes).toContainEqual({ method: 'POST', path: '/v2/scrape' });
    expect(typeof caps.engines.browser).toBe('boolean');
    expect((await callOk<{ balance: number }>(own, 'service_account', {})).balance).toBe(3);
  });
});

describe('service-mcp failures are results with isError', () => {
  it('carries the HTTP status, code and API message (404, 400) and input validation errors', async () => {
    const notFound = await callError(mcp, 'service_monitor_get', { id: randomUUID() });
    expect(notFound).toMatch(/^HTTP 404 NOT_FOUND: /);

    const badUrl = await callError(mcp, 'service_scrape', { url: 'ftp://example.com/file' });
    expect(badUrl).toMatch(/^HTTP 400 INVALID_URL: .*http/);

    const outOfRange = await callError(mcp, 'service_search', { query: 'x', num_results: 21 });
    expect(outOfRange).toContain('num_results');
  });

  it('a wrong API key gives 401 with the API message', async () => {
    const wrongKey = 'wcs_live_this_key_does_not_exist_0000000000';
    const api = await fetch(`${stack.baseUrl}/v1/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${wrongKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${stack.site.url}/` }),
    });
    const apiBody = (await api.json()) as { error: string };
    expect(api.status).toBe(401);

    const other = await startServer({ SERVICE_API_KEY: wrongKey, SERVICE_BASE_URL: stack.baseUrl });
    const text = await callError(other, 'service_scrape', { url: `${stack.site.url}/` });
    expect(text).toContain('HTTP 401 UNAUTHORIZED');
    expect(text).toContain(apiBody.error);
  });

  it('an account without credits gets 402 INSUFFICIENT_CREDITS', async () => {
    const broke = await createTestAccount({ plan: 'hobby', credits: 0 });
    const other = await startServer({ SERVICE_API_KEY: broke.apiKey, SERVICE_BASE_URL: stack.baseUrl });
    const text = await callError(other, 'service_map', { url: stack.site.url });
    expect(text).toMatch(/^HTTP 402 INSUFFICIENT_CREDITS: /);
  });

  it('no HTTP response (service unreachable) is status 0 with the client code', async () => {
    const port = await closedPort();
    const other = await startServer({
      SERVICE_API_KEY: stack.account.apiKey,
      SERVICE_BASE_URL: `http://127.0.0.1:${port}`,
    });
    const text = await callError(other, 'service_monitor_list', {});
    expect(text).toMatch(/^No HTTP response \(NETWORK_ERROR\): .*127\.0\.0\.1/);
  });

  it('without SERVICE_API_KEY the server starts, warns on stderr and every call says what to set', async () => {
    const other = await startServer({ SERVICE_BASE_URL: stack.baseUrl });
    const { tools } = await other.client.listTools();
    expect(tools).toHaveLength(Object.keys(TOOL_REQUIRED).length);
    for (const [name, args] of [
      ['service_scrape', { url: `${stack.site.url}/` }],
      ['service_monitor_list', {}],
      ['service_batch_status', { id: 'x' }],
    ] as const) {
      const text = await callError(other, name, args);
      expect(text).toContain('SERVICE_API_KEY');
      expect(text).toContain('MCP host configuration');
    }
    const warning = await pollUntil(
      async () => (other.stderr().includes('\n') ? other.stderr() : undefined),
      30_000,
    );
    expect(warning.trim().split('\n')).toHaveLength(1);
    expect(warning).toMatch(/warning: SERVICE_API_KEY is not set/);
  });

  it('stdout carried only JSON-RPC (no protocol errors in any session)', () => {
    for (const session of sessions) expect(session.protocolErrors).toEqual([]);
  });
});

describe('service-mcp page options', () => {
  const PROBE = 'x-mcp-probe';
  let site: PageOptionsSite;

  beforeAll(async () => {
    site = await startPageOptionsSite();
  });
  afterAll(async () => {
    await site?.close();
  });

  it('the scrape, batch and crawl tools list the page options', async () => {
    const { tools } = await mcp.client.listTools();
    const inputs = (name: string) =>
      Object.keys(tools.find((t) => t.name === name)?.inputSchema.properties ?? {});
    const page = [
      'formats',
      'headers',
      'actions',
      'mobile',
      'location',
      'includeTags',
      'excludeTags',
      'maxAge',
    ];
    expect(inputs('service_scrape')).toEqual(expect.arrayContaining([...page, 'waitFor']));
    expect(inputs('service_batch_scrape')).toEqual(expect.arrayContaining(page));
    expect(inputs('service_crawl')).toEqual(expect.arrayContaining(page));
  });

  it('service_scrape passes formats and headers: exactly the asked formats come back', async () => {
    const page = await callOk(mcp, 'service_scrape', {
      url: `${site.url}/echo`,
      formats: ['links', 'rawHtml'],
      headers: { [PROBE]: 'mcp-scrape' },
    });
    expect(Object.keys(page).sort()).toEqual(['links', 'metadata', 'rawHtml']);
    expect(page.rawHtml).toContain(`header ${PROBE} = mcp-scrape`);
    expect(page.links).toEqual(expect.any(Array));
    expect(site.requestsTo('/echo').some((r) => r.headers[PROBE] === 'mcp-scrape')).toBe(true);
  });

  it('service_scrape passes the tag filters', async () => {
    const page = await callOk(mcp, 'service_scrape', {
      url: `${site.url}/tagged`,
      onlyMainContent: false,
      includeTags: ['article', 'aside'],
      excludeTags: ['aside'],
    });
    expect(page.markdown).toContain('Articleword');
    expect(page.markdown).not.toContain('Asideword');
    expect(page.markdown).not.toContain('Navword');
  });

  it('service_batch_scrape and service_crawl pass page options and return the asked formats', async () => {
    const batch = await callOk<JobCounts & { results: Array<Record<string, unknown>> }>(
      mcp,
      'service_batch_scrape',
      { urls: [`${site.url}/echo?mcp=b`], formats: ['rawHtml'], headers: { [PROBE]: 'mcp-batch' } },
    );
    expect(batch.status).toBe('done');
    expect(Object.keys(batch.results[0] ?? {}).sort()).toEqual(['rawHtml', 'url']);
    expect(batch.results[0]?.rawHtml).toContain(`header ${PROBE} = mcp-batch`);

    const crawl = await callOk<TrimmedCrawl>(mcp, 'service_crawl', {
      url: `${site.url}/echo?mcp=c`,
      maxDepth: 0,
      headers: { [PROBE]: 'mcp-crawl' },
    });
    expect(crawl.status).toBe('done');
    expect(crawl.pages[0]?.markdown).toContain('mcp-crawl');
  });

  it('a wrong page option is an isError answer naming the field', async () => {
    const text = await callError(mcp, 'service_scrape', {
      url: `${site.url}/echo`,
      headers: { 'bad header': 'x' },
    });
    expect(text).toMatch(/headers/);
  });
});
