import { RateLimitedError } from '@wcs/errors';
import type { NextFunction, Request, Response } from 'express';
import type { GatewayDeps } from '../deps';
import { authOf } from './auth.middleware';
import { countHit, fixedWindowKey } from './fixed-window';
import { RateLimitView } from './rate-limit-view';

/**
 * The Redis counter of an account's current fixed window (also read by GET /v1/account). Counted
 * per account, not per key: keys are cheap to create, so a per-key count would multiply the plan.
 */
export function rateLimitKey(
  accountId: string,
  windowMs: number,
  now = Date.now(),
): { key: string; window: number } {
  return fixedWindowKey(`wcs:rl:account:${accountId}`, windowMs, now);
}

/**
 * Fixed-window limit per account (all its keys and dashboard sessions together), sized by plan. A
 * 429 always carries Retry-After. If Redis is unreachable the limiter lets the request through
 * (the queue then answers 503 on its own). Far from the limit the request goes on while its hit is
 * still on its way to Redis (`view`, rate-limit-view.ts): one round trip less before any work.
 */
export function rateLimitMiddleware(
  deps: Pick<GatewayDeps, 'redis' | 'settings' | 'logger'>,
  view: RateLimitView = new RateLimitView(),
) {
  const windowMs = deps.settings.rateLimitWindowSeconds * 1000;
  return async (_req: Request, res: Response, next: NextFunction) => {
    const auth = authOf(res);
    const limit = deps.settings.rateLimits[auth.plan];
    const { key, window } = rateLimitKey(auth.accountId, windowMs);
    const setCountHeaders = (count: number) => {
      res.setHeader('X-RateLimit-Limit', String(limit));
      res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - count)));
    };
    const redisDown = (err: unknown) => {
      view.failed(auth.accountId);
      deps.logger.warn({ err }, 'rate limiter unavailable; allowing request');
    };
    const passed = view.tryPass(auth.accountId, window, limit);
    if (passed !== undefined) {
      // Counted in Redis all the same; the answer only refreshes the view.
      countHit(deps.redis, key, windowMs).then(
        ({ count }) => view.answered(auth.accountId, window, count, true),
        redisDown,
      );
      setCountHeaders(passed);
      return next();
    }
    let count: number;
    let ttlMs: number;
    try {
      ({ count, ttlMs } = await countHit(deps.redis, key, windowMs));
    } catch (err) {
      redisDown(err);
      return next();
    }
    view.answered(auth.accountId, window, count, false);
    setCountHeaders(count);
    if (count > limit) {
      const retryAfter = Math.max(1, Math.ceil((ttlMs > 0 ? ttlMs : windowMs) / 1000));
      res.setHeader('Retry-After', String(retryAfter));
      throw new RateLimitedError(
        retryAfter,
        `Rate limit of ${limit} requests per ${windowMs / 1000}s exceeded`,
      );
    }
    next();
  };
}
