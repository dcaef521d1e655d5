import { createHash } from 'node:crypto';
import type { EngineName, RenderRequest } from '@wcs/renderer';

/**
 * What changes the bytes a fetch brings back. Formats, tag filters and onlyMainContent are applied
 * to the page after the cache, so they are not part of the key (one entry serves them all).
 * Requests with headers or actions are never cached, so they are not here either.
 */
export interface PageCacheKeyInput {
  url: string;
  engine?: 'auto' | EngineName;
  waitForMs?: number;
  mobile?: boolean;
  location?: RenderRequest['location'];
  /** Default `auto` (the page options' default). */
  proxy?: 'none' | 'default' | 'auto';
}

/**
 * The page cache's key: sha256 hex of a canonical JSON of the input. Defaults are written out
 * (an omitted `mobile` is `false`) so a request that spells a default hits the same entry as one
 * that leaves it out. The URL is taken as given: the caller passes the URL it fetches.
 */
export function pageCacheKey(input: PageCacheKeyInput): string {
  const canonical = {
    url: input.url,
    engine: input.engine ?? 'auto',
    waitForMs: input.waitForMs ?? 0,
    mobile: input.mobile ?? false,
    // Language order is a preference order (Accept-Language q-values): it stays as given.
    location: input.location
      ? {
          country: input.location.country.toUpperCase(),
          languages: input.location.languages ?? null,
        }
      : null,
    proxy: input.proxy ?? 'auto',
  };
  return createHash('sha256').update(canonicalJson(canonical), 'utf8').digest('hex');
}

/** JSON with object keys sorted at every level, so key order in the source never matters. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
