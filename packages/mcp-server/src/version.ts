/** Reported to MCP hosts in the initialize handshake; keep in step with package.json. */
export const SERVER_VERSION = '0.1.0';
