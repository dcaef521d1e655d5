/**
 * A stored response's validators, read from its headers (the page cache keeps the response's
 * headers; a monitor keeps the last ones): what a conditional request sends back.
 */
import type { Validators } from '@wcs/renderer';

export type PageValidators = Validators;

/** Validators longer than this are not kept or sent (a header that size is no ETag). */
const MAX_VALIDATOR_CHARS = 512;

/** The `ETag` and `Last-Modified` of `headers` (any case), or undefined when it has neither. */
export function validatorsOf(headers: Readonly<Record<string, string>>): PageValidators | undefined {
  let etag: string | undefined;
  let lastModified: string | undefined;
  for (const [name, value] of Object.entries(headers)) {
    const n = name.toLowerCase();
    if (n === 'etag') etag = usable(value);
    else if (n === 'last-modified') lastModified = usable(value);
  }
  if (!etag && !lastModified) return undefined;
  return { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
}

function usable(value: string): string | undefined {
  const v = value.trim();
  return v && v.length <= MAX_VALIDATOR_CHARS && !/[\r\n]/.test(v) ? v : undefined;
}
