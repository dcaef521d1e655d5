import type { VerdictResult } from '@wcs/content';
import { decodeError, encodeError, TargetBlockedError, TargetHttpError } from '@wcs/errors';
import type { DocumentData } from '@wcs/queues';
import { applyVerdict, httpStatusError, VERDICT_WARNINGS, verdictOutcome } from './verdict-outcome';

const doc = (warning?: string): DocumentData => ({
  markdown: 'x',
  metadata: { title: 't', statusCode: 200, sourceURL: 'https://example.com/' },
  ...(warning ? { warning } : {}),
});

function failure(v: VerdictResult) {
  const o = verdictOutcome(v);
  if (o.kind !== 'fail') throw new Error(`expected a failure for ${v.verdict}`);
  // What callers see is what survives the queue.
  return decodeError(encodeError(o.error));
}

describe('verdictOutcome', () => {
  it('blocked → TARGET_BLOCKED with reason and vendor', () => {
    const err = failure({
      verdict: 'blocked',
      block: { reason: 'challenge', vendor: 'cloudflare' },
      signals: [],
    });
    expect(err).toBeInstanceOf(TargetBlockedError);
    expect(err).toMatchObject({ code: 'TARGET_BLOCKED', status: 502, retryable: false });
    expect(err.details).toEqual({ reason: 'challenge', vendor: 'cloudflare' });
    expect(err.message).toMatch(/bot challenge \(cloudflare\)/);
  });

  it('blocked without a recognised vendor names no vendor', () => {
    const err = failure({ verdict: 'blocked', block: { reason: 'captcha' }, signals: [] });
    expect(err.details).toEqual({ reason: 'captcha' });
  });

  it('soft-404 → TARGET_HTTP_ERROR 404, soft', () => {
    const err = failure({ verdict: 'soft-404', shownStatus: 404, signals: [] });
    expect(err).toBeInstanceOf(TargetHttpError);
    expect(err).toMatchObject({ code: 'TARGET_HTTP_ERROR', status: 502 });
    expect(err.details).toEqual({ statusCode: 404, soft: true });
  });

  it('error-page → TARGET_HTTP_ERROR with the status it shows, retried like that status', () => {
    const err = failure({ verdict: 'error-page', shownStatus: 503, signals: [] });
    expect(err.details).toEqual({ statusCode: 503, soft: true });
    expect(err.retryable).toBe(httpStatusError(503, { soft: false }).retryable);
    // A server error is transient (batch items and crawl pages try again); a "not found" is not.
    expect(err.retryable).toBe(true);
    expect(failure({ verdict: 'soft-404', shownStatus: 404, signals: [] }).retryable).toBe(false);
    expect(failure({ verdict: 'error-page', signals: [] }).details).toEqual({ statusCode: 500, soft: true });
  });

  it.each(['parked', 'login-wall', 'empty'] as const)('%s is delivered with its warning', (verdict) => {
    expect(verdictOutcome({ verdict, signals: [] })).toEqual({
      kind: 'deliver',
      warning: VERDICT_WARNINGS[verdict],
    });
  });

  it('content is delivered without a warning', () => {
    expect(verdictOutcome({ verdict: 'content', signals: [] })).toEqual({ kind: 'deliver' });
  });
});

describe('applyVerdict', () => {
  it('appends the warning to one the page already has and sets metadata.verdict', () => {
    const d = doc('The page was cut at 5 MB.');
    applyVerdict(d, { verdict: 'login-wall', signals: [] });
    expect(d.warning).toBe(`The page was cut at 5 MB. ${VERDICT_WARNINGS['login-wall']}`);
    expect(d.metadata.verdict).toBe('login-wall');
  });

  it('throws the failure and leaves content alone', () => {
    expect(() => applyVerdict(doc(), { verdict: 'soft-404', shownStatus: 404, signals: [] })).toThrow(
      TargetHttpError,
    );
    const d = doc();
    applyVerdict(d, { verdict: 'content', signals: [] });
    expect(d).toEqual({ ...doc(), metadata: { ...doc().metadata, verdict: 'content' } });
  });
});
