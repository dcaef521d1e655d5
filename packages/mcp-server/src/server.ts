/**
 * The MCP server: fifteen tools over the web-content API, one concept per file under tools/.
 * Transport-free, so main.ts wires it to stdio and tests could wire it to anything.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServiceClient } from '@wcs/client-node';
import { registerAccountTools } from './tools/account.tools.js';
import { registerBatchTools } from './tools/batch.tools.js';
import { registerCrawlTools } from './tools/crawl.tools.js';
import { registerDiscoveryTools } from './tools/discovery.tools.js';
import { registerExtractTools } from './tools/extract.tools.js';
import { registerMonitorTools } from './tools/monitor.tools.js';
import { registerParseTools } from './tools/parse.tools.js';
import { registerScrapeTools } from './tools/scrape.tools.js';
import type { ToolContext, ToolRegistrar } from './tools/tool-context.js';
import { SERVER_VERSION } from './version.js';

export interface ServiceMcpServerOptions {
  /** Poll interval of crawl/batch waits (default: the client's, 2000 ms). For tests. */
  pollIntervalMs?: number;
}

/** Shown to the model by hosts that surface server instructions. */
const INSTRUCTIONS = [
  'Tools of a web-content API. Pick by what you know:',
  '- one known page → service_scrape (1 credit); specific fields as JSON → service_extract (5 credits);',
  '- a local file (PDF, DOCX, HTML) → service_parse (1 credit);',
  '- many known URLs → service_batch_scrape (1 credit per URL);',
  "- a whole site's content → service_crawl (1 credit per page; keep maxPages small);",
  "- a site's URLs only → service_map (1 credit); pages about a topic → service_search (2 credits per result);",
  '- watch a page for changes → service_monitor_* (1 credit per check).',
  '- credits left, plan, 30-day usage, rate limit → service_account (free).',
  '- what this deployment supports (browser, model, formats, limits) → service_capabilities (free).',
  'service_crawl and service_batch_scrape wait for their results unless wait is false (then poll',
  'service_crawl_status / service_batch_status). Failures come back with isError and the HTTP status.',
].join('\n');

const REGISTRARS: readonly ToolRegistrar[] = [
  registerScrapeTools,
  registerParseTools,
  registerCrawlTools,
  registerBatchTools,
  registerDiscoveryTools,
  registerExtractTools,
  registerMonitorTools,
  registerAccountTools,
];

/** `client` null (no SERVICE_API_KEY): the tools are listed but every call answers isError. */
export function createServiceMcpServer(
  client: ServiceClient | null,
  options: ServiceMcpServerOptions = {},
): McpServer {
  const server = new McpServer(
    { name: 'service-mcp', version: SERVER_VERSION },
    { instructions: INSTRUCTIONS },
  );
  const ctx: ToolContext = { client, pollIntervalMs: options.pollIntervalMs };
  for (const register of REGISTRARS) register(server, ctx);
  return server;
}
