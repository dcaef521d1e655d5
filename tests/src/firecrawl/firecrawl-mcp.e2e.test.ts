/**
 * The published `firecrawl-mcp` server (npm, 3.26.0) as a child process over stdio, with only
 * `FIRECRAWL_API_URL=<gateway>/firecrawl` and `FIRECRAWL_API_KEY` set: it lists its tools
 * and its scrape, map, crawl and crawl-status tools work against this service.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { balanceOf } from '../harness';
import { type FirecrawlStack, HOME_TABLE_CELL, HOME_TITLE, startFirecrawlStack } from './firecrawl-stack';

const SERVER_MAIN = path.resolve(__dirname, '../../node_modules/firecrawl-mcp/dist/index.js');

let s: FirecrawlStack;
let client: Client;
let stderr = '';

beforeAll(async () => {
  s = await startFirecrawlStack();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER_MAIN],
    // Exactly what a user sets for a self-hosted instance (plus PATH): no cloud, no OAuth.
    env: { PATH: process.env.PATH ?? '', FIRECRAWL_API_URL: s.apiUrl, FIRECRAWL_API_KEY: s.apiKey },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  client = new Client({ name: 'firecrawl-mcp-e2e', version: '1.0.0' });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  await s?.close();
});

/** Calls a tool that must succeed and parses its JSON text (a failure shows the server's stderr). */
async function call<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const raw = await client.callTool({ name, arguments: args }, CallToolResultSchema, { timeout: 50_000 });
  const result: CallToolResult = CallToolResultSchema.parse(raw);
  const first = result.content[0];
  const text = first?.type === 'text' ? first.text : '';
  if (result.isError) throw new Error(`${name} answered isError: ${text}\n--- server stderr ---\n${stderr}`);
  return JSON.parse(text) as T;
}

interface McpDoc {
  markdown?: string;
  html?: string;
  links?: string[];
  metadata?: { title?: string; sourceURL?: string; url?: string };
}
interface McpCrawl {
  id: string;
  status: string;
  completed: number;
  total: number;
  creditsUsed?: number;
  data: McpDoc[];
}

it('lists the scrape, map, crawl and crawl-status tools', async () => {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  expect(names).toEqual(
    expect.arrayContaining([
      'firecrawl_scrape',
      'firecrawl_map',
      'firecrawl_crawl',
      'firecrawl_check_crawl_status',
    ]),
  );
});

it('firecrawl_scrape returns the page markdown (and html when asked), 1 credit', async () => {
  const before = await balanceOf(s.account.accountId);
  const doc = await call<McpDoc>('firecrawl_scrape', {
    url: `${s.site.url}/`,
    formats: ['markdown', 'html'],
  });
  expect(doc.markdown).toContain(HOME_TITLE);
  expect(doc.markdown).toContain(HOME_TABLE_CELL);
  expect(doc.html).toContain('<table');
  expect(doc.metadata?.title).toBe(HOME_TITLE);
  expect(await balanceOf(s.account.accountId)).toBe(before - 1);
});

it('firecrawl_map lists the site, filtered by search', async () => {
  const res = await call<{ links: Array<{ url: string }> }>('firecrawl_map', {
    url: `${s.site.url}/`,
    search: 'article',
    limit: 50,
  });
  const urls = res.links.map((l) => l.url);
  expect(urls).toEqual(expect.arrayContaining([`${s.site.url}/article/0`]));
  expect(urls.every((u) => u.includes('article'))).toBe(true);
});

it('firecrawl_crawl waits for the crawl; firecrawl_check_crawl_status reads the same job', async () => {
  const crawl = await call<McpCrawl>('firecrawl_crawl', { url: `${s.site.url}/tree`, limit: 4 });
  expect(crawl.status).toBe('completed');
  expect(crawl.data).toHaveLength(4);
  expect(crawl.creditsUsed).toBe(4);
  for (const d of crawl.data) expect(d.markdown).toContain('Tree node');
  const status = await call<McpCrawl>('firecrawl_check_crawl_status', { id: crawl.id });
  expect(status).toMatchObject({ id: crawl.id, status: 'completed', completed: 4, total: 4 });
  expect(status.data.map((d) => d.metadata?.sourceURL ?? d.metadata?.url).sort()).toEqual(
    crawl.data.map((d) => d.metadata?.sourceURL ?? d.metadata?.url).sort(),
  );
});

it('a tool call the service refuses comes back as isError with the server message', async () => {
  const raw = await client.callTool(
    { name: 'firecrawl_check_crawl_status', arguments: { id: '00000000-0000-4000-8000-000000000000' } },
    CallToolResultSchema,
  );
  const result = CallToolResultSchema.parse(raw);
  expect(result.isError).toBe(true);
  const first = result.content[0];
  expect(first?.type === 'text' ? first.text : '').toMatch(/404|not found/i);
});

it('a tool whose endpoint the service does not offer answers isError naming it (501)', async () => {
  const raw = await client.callTool(
    { name: 'firecrawl_agent', arguments: { prompt: 'find the pricing page' } },
    CallToolResultSchema,
  );
  const result = CallToolResultSchema.parse(raw);
  expect(result.isError).toBe(true);
  const first = result.content[0];
  expect(first?.type === 'text' ? first.text : '').toMatch(/agent is not supported/i);
});
