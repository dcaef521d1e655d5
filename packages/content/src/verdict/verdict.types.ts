/**
 * What a fetched page is, decided before anyone is billed for it. Only `content` (and the three
 * kinds a user may still want: `parked`, `login-wall`, `empty`) is delivered; `blocked`,
 * `soft-404` and `error-page` fail the page (the scraper turns them into errors).
 */
export const PAGE_VERDICTS = [
  'content',
  'blocked',
  'soft-404',
  'error-page',
  'parked',
  'login-wall',
  'empty',
] as const;
export type PageVerdict = (typeof PAGE_VERDICTS)[number];

/** Why a `blocked` page is blocked. */
export type BlockReason = 'challenge' | 'captcha' | 'access-denied' | 'rate-limited';

/** A bot wall recognised from the answer (status, headers, markup). */
export interface BlockSignal {
  reason: BlockReason;
  /** The vendor whose wall this is, when recognised: cloudflare, akamai, datadome, perimeterx, … */
  vendor?: string;
}

export interface VerdictResult {
  verdict: PageVerdict;
  /** `blocked` only. */
  block?: BlockSignal;
  /** `soft-404` (404) and `error-page` (the status the page shows: 500, 502, 503, …). */
  shownStatus?: number;
  /** The signals the verdict rests on, short names, for logs and `bench:verdicts`. */
  signals: string[];
}

/** The raw answer as the fetch saw it: enough to recognise a wall before converting anything. */
export interface RawAnswer {
  statusCode: number;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string>>;
  body: string;
  /**
   * The body's first `chars` characters, when the caller can give them without reading `body`
   * whole (a decoded page kept in pieces: reading a rope of them copies the whole page).
   */
  prefix?: (chars: number) => string;
}
