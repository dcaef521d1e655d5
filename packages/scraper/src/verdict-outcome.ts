import type { BlockSignal, PageVerdict, VerdictResult } from '@wcs/content';
import { type ServiceError, TargetBlockedError, TargetHttpError } from '@wcs/errors';
import type { DocumentData, FetchAttempt } from '@wcs/queues';

/**
 * What a page's verdict does, decided here only (scrape, batch items, crawl pages, extract input,
 * monitor checks and search hits all pass through `documentFromPage`):
 * - `blocked` → TARGET_BLOCKED (`details.reason`, `details.vendor` when recognised);
 * - `soft-404` / `error-page` → TARGET_HTTP_ERROR with the status the page shows and
 *   `details.soft: true`, built like the error of a real status of that number (same retry policy);
 * - `parked`, `login-wall`, `empty` → delivered (and billed) with a `data.warning` naming it;
 * - `content` → delivered as is.
 * A failure is thrown before anything is billed, so callers refund it like any target error.
 */
export type VerdictOutcome = { kind: 'fail'; error: ServiceError } | { kind: 'deliver'; warning?: string };

/** The warning a delivered page carries when it is not the site's content. */
export const VERDICT_WARNINGS: Readonly<Partial<Record<PageVerdict, string>>> = {
  parked: 'The page is a parked domain (a placeholder or for-sale page), not a site’s content.',
  'login-wall': 'The page is a login wall: its content needs a sign-in the request did not have.',
  empty:
    'The page has no content: an empty app shell or blank page (a browser render or a longer waitFor may help).',
};

export function verdictOutcome(v: VerdictResult): VerdictOutcome {
  switch (v.verdict) {
    case 'blocked':
      return { kind: 'fail', error: blockedError(v.block ?? { reason: 'access-denied' }) };
    case 'soft-404':
      return { kind: 'fail', error: httpStatusError(v.shownStatus ?? 404, { soft: true }) };
    case 'error-page':
      return { kind: 'fail', error: httpStatusError(v.shownStatus ?? 500, { soft: true }) };
    case 'content':
      return { kind: 'deliver' };
    default: {
      const warning = VERDICT_WARNINGS[v.verdict];
      return warning ? { kind: 'deliver', warning } : { kind: 'deliver' };
    }
  }
}

/** The verdict applied to a converted document: thrown when it fails, its warning appended otherwise. */
export function applyVerdict(data: DocumentData, v: VerdictResult): void {
  const outcome = verdictOutcome(v);
  if (outcome.kind === 'fail') throw outcome.error;
  data.metadata.verdict = v.verdict;
  if (outcome.warning) data.warning = data.warning ? `${data.warning} ${outcome.warning}` : outcome.warning;
}

/** A bot wall, from the answer's status or the converted page: TARGET_BLOCKED with why and whose. */
export function blockedError(
  block: BlockSignal,
  statusCode?: number,
  attempts?: FetchAttempt[],
): TargetBlockedError {
  const by = block.vendor ? ` (${block.vendor})` : '';
  const what: Record<BlockSignal['reason'], string> = {
    challenge: `a bot challenge${by}`,
    captcha: `a captcha${by}`,
    'access-denied': `an access-denied page${by}`,
    'rate-limited': `a rate limit${by}`,
  };
  const at = statusCode !== undefined ? ` (HTTP ${statusCode})` : '';
  const tried = attempts ? ` after ${attempts.length} attempt${attempts.length === 1 ? '' : 's'}` : '';
  return new TargetBlockedError(`Target refused automated access: ${what[block.reason]}${at}${tried}`, {
    details: {
      reason: block.reason,
      ...(block.vendor ? { vendor: block.vendor } : {}),
      ...(statusCode !== undefined ? { statusCode } : {}),
      ...(attempts ? { attempts } : {}),
    },
  });
}

/**
 * A target's HTTP error, answered (`soft: false`) or shown on a 200 page (`soft: true`): one
 * constructor, so a page that shows 502 is retried (or not) exactly like an answer of 502.
 */
export function httpStatusError(
  statusCode: number,
  o: { soft: boolean; attempts?: FetchAttempt[] },
): TargetHttpError {
  if (!o.soft)
    return new TargetHttpError(
      statusCode,
      undefined,
      o.attempts ? { details: { attempts: o.attempts } } : {},
    );
  const kind = statusCode === 404 ? 'a “not found” page' : `an error page showing HTTP ${statusCode}`;
  return new TargetHttpError(statusCode, `Target answered with ${kind} (soft ${statusCode})`, {
    details: { soft: true },
  });
}
