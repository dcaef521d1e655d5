/** What every tool module receives from createServiceMcpServer. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ServiceClient } from '@wcs/client-node';

export interface ToolContext {
  /** null when SERVICE_API_KEY is missing: every tool then answers with isError. */
  client: ServiceClient | null;
  /** Poll interval of crawl/batch waits; undefined = the client's default (2000 ms). */
  pollIntervalMs: number | undefined;
}

/** The second argument of a tool handler (abort signal, request _meta, sendNotification…). */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export type ToolRegistrar = (server: McpServer, ctx: ToolContext) => void;
