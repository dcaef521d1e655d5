/**
 * What the service must answer for each hostile case, from the README's error table:
 * too big, endless and bombs → TARGET_TOO_LARGE (502); slow → TIMEOUT (504) within the request's
 * budget; binary served as HTML → UNSUPPORTED_CONTENT_TYPE (415), never billed; heavy pages (deep
 * nesting, one huge text node, 100k links) → 200 within budget with a `warning`; wrong or unknown
 * charsets → 200, decoded; redirect loops and chains longer than MAX_REDIRECTS → TOO_MANY_REDIRECTS.
 */
import type { HostileCase } from '@wcs/testing';

export type Outcome = { ok: true; warning: boolean } | { ok: false; code: string; status: number };

const TOO_LARGE: Outcome = { ok: false, code: 'TARGET_TOO_LARGE', status: 502 };
const TIMEOUT: Outcome = { ok: false, code: 'TIMEOUT', status: 504 };
const BINARY: Outcome = { ok: false, code: 'UNSUPPORTED_CONTENT_TYPE', status: 415 };
const REDIRECTS: Outcome = { ok: false, code: 'TOO_MANY_REDIRECTS', status: 502 };
const OK: Outcome = { ok: true, warning: false };
const CUT: Outcome = { ok: true, warning: true };

/** `fetch`: engine fetch; `browser`: engine browser; `auto`: the default (batch, crawl, map, …). */
export type EngineMode = 'fetch' | 'browser' | 'auto';

export function expectedOutcome(name: HostileCase, engine: EngineMode): Outcome {
  switch (name) {
    case 'page':
    case 'charset-latin1-as-utf8':
    case 'charset-unknown':
    case 'private-connections':
      return OK;
    case 'huge':
    case 'endless':
    case 'gzip-bomb':
    case 'brotli-bomb':
      return TOO_LARGE;
    case 'slow-loris':
    case 'slow-headers':
      return TIMEOUT;
    case 'deep-nesting':
    case 'huge-text':
    case 'many-links':
      return CUT;
    case 'binary-png':
    case 'binary-zip':
    case 'binary-random':
      return BINARY;
    case 'redirect-loop':
    case 'redirect-chain':
      return REDIRECTS;
    case 'app-shell':
      // Plain fetch sees a small shell page; any browser render meets the endless iframe and must
      // stop at the per-page byte cap instead of answering empty markdown.
      return engine === 'fetch' ? OK : TOO_LARGE;
  }
}

/**
 * Also acceptable: a heavy page (deep nesting, a huge text node, 100k links) rendered by Chromium
 * can cost its renderer more than BROWSER_MAX_RENDERER_MB (100k links: ~1.7 GB); the ceiling then
 * kills it and the answer is TARGET_TOO_LARGE, not billed — the documented bound doing its job.
 */
export function alternativeOutcome(name: HostileCase, engine: EngineMode): Outcome | undefined {
  const heavy = name === 'deep-nesting' || name === 'huge-text' || name === 'many-links';
  return heavy && engine === 'browser' ? TOO_LARGE : undefined;
}

export function describeOutcome(o: Outcome): string {
  if (!o.ok) return `${o.status} ${o.code}`;
  return o.warning ? '200 +warning' : '200';
}

/** Budgets (ms) a cell's answer must arrive within. Slow cases run with a short request timeout. */
export const SLOW_CASE_TIMEOUT_MS = 5_000;
export const ANSWER_SLACK_MS = 3_000;

export function isSlowCase(name: HostileCase): boolean {
  return name === 'slow-loris' || name === 'slow-headers';
}
