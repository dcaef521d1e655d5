/**
 * What a billable call cost, on its answer: `X-Credits-Used` (credits this request kept, after
 * refunds) and `X-Credits-Remaining` (the account's balance right after it). Set before the body
 * is written; a response whose headers already went out is left alone. A request that settles more
 * than one charge (Firecrawl's scrape with a `json` format: the page, then the model) adds them up.
 */
export const CREDITS_USED_HEADER = 'X-Credits-Used';
export const CREDITS_REMAINING_HEADER = 'X-Credits-Remaining';

/** The part of Express's Response this needs. */
export interface CreditHeaderTarget {
  setHeader(name: string, value: string): unknown;
  getHeader(name: string): unknown;
  readonly headersSent: boolean;
}

export function setCreditHeaders(res: CreditHeaderTarget, c: { used: number; remaining: number }): void {
  if (res.headersSent) return;
  const before = Number(res.getHeader(CREDITS_USED_HEADER) ?? 0);
  res.setHeader(CREDITS_USED_HEADER, String((Number.isSafeInteger(before) ? before : 0) + c.used));
  res.setHeader(CREDITS_REMAINING_HEADER, String(c.remaining));
}

/** `res` when it can take headers (an Express Response), else undefined (a bare caller in tests). */
export function headerTargetOf(res: object | undefined): CreditHeaderTarget | undefined {
  return res && 'setHeader' in res && 'getHeader' in res && 'headersSent' in res
    ? (res as CreditHeaderTarget)
    : undefined;
}
