import { z } from 'zod';
import { ConfigError } from './load-env';
import { envInt as int } from './schemas';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const optionalUrl = (name: string) =>
  optionalString.refine((v) => v === undefined || /^https?:\/\/[^\s/]+/i.test(v), {
    message: `${name} must be an http(s) URL, e.g. http://searxng:8080`,
  });

/**
 * `POST /v1/search` settings (gateway). The provider is chosen by SEARCH_PROVIDER; the default
 * (`embedded`, full-text search over the account's own pages in PostgreSQL) needs nothing.
 */
export const searchEnv = z.object({
  SEARCH_PROVIDER: z
    .enum(['embedded', 'searxng', 'brave'])
    .default('embedded')
    .describe('`embedded` (own pages, PostgreSQL) | `searxng` | `brave`'),
  /** Base URL of a SearXNG instance with the `json` format enabled (settings.yml: search.formats). */
  SEARXNG_URL: optionalUrl('SEARXNG_URL').describe('SearXNG base URL (required with `searxng`)'),
  /** Brave Search API subscription token (header X-Subscription-Token). */
  BRAVE_API_KEY: optionalString.describe('Brave Search token (required with `brave`)'),
  /** Brave Search API base; overridable so tests (or a proxy) can stand in for it. */
  BRAVE_BASE_URL: z
    .string()
    .url()
    .default('https://api.search.brave.com/res/v1')
    .describe('Brave Search endpoint'),
  /** Budget of the provider call alone (SearXNG/Brave HTTP, or the PostgreSQL query). */
  SEARCH_PROVIDER_TIMEOUT_MS: int(10_000, 100).describe('budget of the provider call'),
  /** Default budget of a whole search (provider + scraping every hit); `timeout` in the body overrides. */
  SEARCH_TIMEOUT_MS: int(60_000, 1000).describe(
    'default budget of a whole `/v1/search` call (provider + scraping the hits)',
  ),
  /** Embedded: longest wait for the account's pages reported but not yet indexed (read-your-writes); 0 = none. */
  SEARCH_INDEX_WAIT_MS: int(2_000, 0).describe(
    'embedded search: longest wait for your pages reported but not yet indexed (read-your-writes); `0` = no wait',
  ),
});

export type SearchEnv = z.infer<typeof searchEnv>;

export type SearchProviderConfig =
  | { provider: 'embedded'; timeoutMs: number; indexWaitMs: number }
  | { provider: 'searxng'; timeoutMs: number; searxngUrl: string }
  | { provider: 'brave'; timeoutMs: number; braveApiKey: string; braveBaseUrl: string };

/**
 * The provider's settings, checked together: SEARCH_PROVIDER=searxng without SEARXNG_URL (or brave
 * without BRAVE_API_KEY) stops the service at start with a message naming the variable.
 */
export function searchProviderConfig(env: SearchEnv): SearchProviderConfig {
  const timeoutMs = env.SEARCH_PROVIDER_TIMEOUT_MS;
  switch (env.SEARCH_PROVIDER) {
    case 'embedded':
      return { provider: 'embedded', timeoutMs, indexWaitMs: env.SEARCH_INDEX_WAIT_MS };
    case 'searxng':
      if (!env.SEARXNG_URL) {
        throw new ConfigError(
          'Invalid configuration:\n  SEARXNG_URL: is required when SEARCH_PROVIDER=searxng',
        );
      }
      return { provider: 'searxng', timeoutMs, searxngUrl: env.SEARXNG_URL };
    case 'brave':
      if (!env.BRAVE_API_KEY) {
        throw new ConfigError(
          'Invalid configuration:\n  BRAVE_API_KEY: is required when SEARCH_PROVIDER=brave',
        );
      }
      return {
        provider: 'brave',
        timeoutMs,
        braveApiKey: env.BRAVE_API_KEY,
        braveBaseUrl: env.BRAVE_BASE_URL,
      };
  }
}
