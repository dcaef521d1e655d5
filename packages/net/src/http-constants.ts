/**
 * The status and content-type sets of the service, defined once. Anything that asks "is this a
 * redirect / a block / an HTML page?" imports them from here (`grep` finds one definition each).
 */

/** Statuses whose Location we follow. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Statuses that mean the site refused us (bot wall, login, rate limit, legal), not a missing page. */
export const BLOCK_STATUSES: ReadonlySet<number> = new Set([401, 403, 429, 451]);

/** Media types that are HTML documents (links are extracted, JavaScript may be needed). */
export const HTML_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);

/** Media types returned as text; `+json` / `+xml` suffix types are text too (isTextMediaType). */
export const TEXT_TYPES: ReadonlySet<string> = new Set([
  'text/html',
  'application/xhtml+xml',
  'text/plain',
  'text/markdown',
  'text/x-markdown',
  'application/json',
  'text/xml',
  'application/xml',
]);

/** 'Text/HTML; charset=UTF-8' → 'text/html'; '' when absent. */
export function mimeTypeOf(contentType: string | undefined | null): string {
  if (!contentType) return '';
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/** TEXT_TYPES plus application/ld+json, application/rss+xml, application/atom+xml, … */
export function isTextMediaType(mime: string): boolean {
  if (TEXT_TYPES.has(mime)) return true;
  return /^[a-z0-9.+-]+\/[a-z0-9.-]+\+(json|xml)$/.test(mime);
}

export function isHtmlMediaType(mime: string): boolean {
  return HTML_TYPES.has(mime);
}
