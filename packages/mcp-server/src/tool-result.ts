/**
 * How every tool answers. Success: one text block holding pretty JSON. Failure: a normal result
 * with `isError: true` whose text carries the HTTP status, the API's code and its message — the
 * model reads it and can react (fix a parameter, top up credits…). Handlers never throw.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type ServiceClient, ServiceError } from '@wcs/client-node';

export const MISSING_KEY_MESSAGE =
  'SERVICE_API_KEY is not set, so service-mcp cannot call the API. Add it to the "env" block of the ' +
  'service-mcp entry in your MCP host configuration (for example "env": { "SERVICE_API_KEY": "<your key>" }) ' +
  'and restart the server.';

export function jsonResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}

export function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * `HTTP 402 INSUFFICIENT_CREDITS: <API message>`, or `No HTTP response (CLIENT_TIMEOUT): …` when
 * the client never got an answer (status 0). The API's `details` follow on a second line.
 */
export function describeError(err: unknown): string {
  if (err instanceof ServiceError) {
    const head = err.status > 0 ? `HTTP ${err.status} ${err.code}` : `No HTTP response (${err.code})`;
    const details = err.details && err.status > 0 ? `\nDetails: ${JSON.stringify(err.details)}` : '';
    return `${head}: ${err.message}${details}`;
  }
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return `Unexpected failure: ${String(err)}`;
}

/**
 * Runs one tool call: refuses politely without an API key, turns the value `work` returns into
 * JSON text and any thrown error into an `isError` result.
 */
export async function runTool(
  client: ServiceClient | null,
  work: (client: ServiceClient) => Promise<unknown>,
): Promise<CallToolResult> {
  if (!client) return errorResult(MISSING_KEY_MESSAGE);
  try {
    return jsonResult(await work(client));
  } catch (err) {
    return errorResult(describeError(err));
  }
}
