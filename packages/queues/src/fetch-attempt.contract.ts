import { z } from 'zod';

/**
 * One step of the fetch ladder (the scraper's escalation when a page answers with a wall): which
 * engine asked, whether through one of the deployment's proxies (never which one), what came back.
 * Listed in order in `metadata.attempts` (a page that needed escalation) and in the `details.attempts`
 * of a TARGET_BLOCKED error.
 */
export const fetchAttempt = z.strictObject({
  engine: z.enum(['fetch', 'browser']),
  /** The target's status; absent when the attempt got no answer (`error`) or was not made (`skipped`). */
  statusCode: z.number().int().optional(),
  /** Through the next of the deployment's proxies (`proxy: "auto"` escalation, or `default`). */
  proxy: z.boolean().optional(),
  /** The browser saw a challenge after load and waited for the page's own navigation. */
  waitedForChallenge: z.boolean().optional(),
  /** The target's `Retry-After` waited out before this attempt, ms. */
  retryAfterMs: z.number().int().optional(),
  /** The attempt failed without an answer: the error code (e.g. TIMEOUT, TARGET_UNREACHABLE). */
  error: z.string().optional(),
  /** The step was not taken, and why. */
  skipped: z.enum(['browser-disabled', 'engine-fetch', 'no-budget']).optional(),
});
export type FetchAttempt = z.infer<typeof fetchAttempt>;
