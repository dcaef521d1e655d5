#!/usr/bin/env node
/**
 * `service-mcp`: the web-content API's tools for MCP hosts, over stdio. Configured only by the
 * environment (SERVICE_API_KEY, optional SERVICE_BASE_URL). stdout carries the protocol, so
 * every log line goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { DEFAULT_BASE_URL, ServiceClient } from '@wcs/client-node';
import { readEnv } from './env.js';
import { createServiceMcpServer } from './server.js';
import { SERVER_VERSION } from './version.js';

function log(line: string): void {
  process.stderr.write(`service-mcp: ${line}\n`);
}

async function main(): Promise<void> {
  const env = readEnv();
  const baseUrl = env.baseUrl ?? DEFAULT_BASE_URL;
  const client = env.apiKey ? new ServiceClient({ apiKey: env.apiKey, baseUrl }) : null;
  if (client) log(`${SERVER_VERSION} on stdio, API at ${client.baseUrl}`);
  else
    log(
      'warning: SERVICE_API_KEY is not set; every tool call will fail until it is set in the MCP host configuration',
    );

  const server = createServiceMcpServer(client);
  let closing = false;
  const shutdown = (code: number): void => {
    if (closing) return;
    closing = true;
    server.close().finally(() => process.exit(code));
  };
  process.on('SIGTERM', () => shutdown(0));
  process.on('SIGINT', () => shutdown(0));
  // The host closed our stdin (or the pipe broke): nobody is left to answer.
  process.stdin.on('end', () => shutdown(0));
  process.stdin.on('close', () => shutdown(0));
  process.stdout.on('error', () => shutdown(0));

  await server.connect(new StdioServerTransport());
}

main().catch((err: unknown) => {
  log(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
