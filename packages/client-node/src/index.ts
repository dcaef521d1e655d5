export * from './api-types.js';
export type { CreditsInfo, FetchLike } from './http-transport.js';
export * from './service-client.js';
export * from './service-error.js';
export { CLIENT_VERSION } from './version.js';
export { DEFAULT_POLL_INTERVAL_MS, DEFAULT_WAIT_TIMEOUT_MS } from './wait-for-job.js';
