import { randomUUID } from 'node:crypto';
import { rawEnv } from '@wcs/config';
import { RateLimitedError } from '@wcs/errors';
import { createRedisConnection, type RedisClient } from '@wcs/queues';
import type { NextFunction, Request, Response } from 'express';
import type { GatewayDeps } from '../deps';
import { rateLimitKey, rateLimitMiddleware } from './rate-limit.middleware';
import { RATE_LIMIT_TRUSTED_SHARE, RateLimitView } from './rate-limit-view';

const WINDOW_SECONDS = 86_400;
let redis: RedisClient;
beforeAll(() => {
  redis = createRedisConnection(rawEnv('REDIS_URL') ?? 'redis://127.0.0.1:6379', 'worker');
});
afterAll(() => redis.disconnect());

/** The middleware over the real Redis for a fresh account of the `free` plan (limit `limit`). */
function limiter(limit: number, accountId: string = randomUUID()) {
  const view = new RateLimitView();
  const warnings: unknown[] = [];
  const deps = {
    redis,
    settings: { rateLimitWindowSeconds: WINDOW_SECONDS, rateLimits: { free: limit } },
    logger: { warn: (o: unknown) => warnings.push(o) },
  } as unknown as Pick<GatewayDeps, 'redis' | 'settings' | 'logger'>;
  const mw = rateLimitMiddleware(deps, view);
  /** One request: whether `next` ran before the middleware's first wait, its headers, its error. */
  const hit = async () => {
    const headers: Record<string, string> = {};
    const res = {
      locals: { auth: { accountId, keyId: undefined, plan: 'free' } },
      setHeader: (k: string, v: string) => {
        headers[k.toLowerCase()] = v;
      },
    } as unknown as Response;
    let nextRan = false;
    const pending = mw({} as Request, res, (() => {
      nextRan = true;
    }) as NextFunction);
    const beforeWait = nextRan;
    const error = await pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    return { beforeWait, nextRan, headers, error };
  };
  /** The window's count in Redis, read after every hit sent on the same connection. */
  const stored = async () => Number(await redis.get(rateLimitKey(accountId, WINDOW_SECONDS * 1000).key));
  return { hit, stored, warnings };
}

describe('rate limit middleware', () => {
  it('far from the limit a request goes on before Redis answers; near it, it waits; the count in Redis stays exact', async () => {
    const limit = 10;
    const l = limiter(limit);
    const trusted = Math.floor(limit * RATE_LIMIT_TRUSTED_SHARE);
    const seen: Array<{ beforeWait: boolean; remaining: string | undefined }> = [];
    for (let i = 0; i < limit; i++) {
      const r = await l.hit();
      expect(r.nextRan).toBe(true);
      seen.push({ beforeWait: r.beforeWait, remaining: r.headers['x-ratelimit-remaining'] });
    }
    // The window's first request waits (no view yet); then up to the trusted share goes on at once.
    expect(seen.map((s) => s.beforeWait)).toEqual(
      Array.from({ length: limit }, (_, i) => i > 0 && i < trusted),
    );
    expect(seen.map((s) => s.remaining)).toEqual(
      Array.from({ length: limit }, (_, i) => String(limit - 1 - i)),
    );
    expect(await l.stored()).toBe(limit);
    // The next is over the limit: refused, exactly as when every request waited.
    const over = await l.hit();
    expect(over.nextRan).toBe(false);
    expect(over.error).toBeInstanceOf(RateLimitedError);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it("another gateway's hits reach this one's view with Redis's next answer", async () => {
    const limit = 20;
    const accountId = randomUUID();
    const a = limiter(limit, accountId);
    const b = limiter(limit, accountId);
    expect((await a.hit()).beforeWait).toBe(false); // A's view: 1
    expect((await b.hit()).beforeWait).toBe(false); // B's view: 2
    expect((await b.hit()).beforeWait).toBe(true);
    expect((await b.hit()).beforeWait).toBe(true);
    expect(await b.stored()).toBe(4);
    // A has not heard of B's hits yet: it reports its own view, Redis counts the truth...
    const stale = await a.hit();
    expect(stale.beforeWait).toBe(true);
    expect(stale.headers['x-ratelimit-remaining']).toBe(String(limit - 2));
    expect(await a.stored()).toBe(5);
    // ...and that answer (read before the GET above, same connection) brought A up to date.
    const fresh = await a.hit();
    expect(fresh.headers['x-ratelimit-remaining']).toBe(String(limit - 6));
  });
});

describe('RateLimitView', () => {
  it('trusts a window only after Redis answered for it, and only up to the trusted share', () => {
    const view = new RateLimitView();
    expect(view.tryPass('a', 7, 100)).toBeUndefined();
    view.answered('a', 7, 1, false);
    expect(view.tryPass('a', 7, 100)).toBe(2);
    expect(view.tryPass('a', 7, 100)).toBe(3);
    // Another gateway's hits: Redis's answer says 40 for the first of ours.
    view.answered('a', 7, 40, true);
    expect(view.tryPass('a', 7, 100)).toBe(42); // 40 heard + 1 unanswered + this one
    view.answered('a', 7, 48, true);
    expect(view.tryPass('a', 7, 100)).toBe(50); // 48 + 1 unanswered + this one
    expect(view.tryPass('a', 7, 100)).toBeUndefined(); // 51 > half of 100: wait for Redis
    // The next window starts untrusted; a late answer of the old one changes nothing.
    expect(view.tryPass('a', 8, 100)).toBeUndefined();
    view.answered('a', 8, 1, false);
    view.answered('a', 7, 60, true);
    expect(view.tryPass('a', 8, 100)).toBe(2);
  });

  it('drops an account whose hit Redis did not answer, and holds at most maxAccounts', () => {
    const view = new RateLimitView({ maxAccounts: 3 });
    view.answered('a', 1, 1, false);
    view.failed('a');
    expect(view.tryPass('a', 1, 100)).toBeUndefined();
    for (const id of ['b', 'c', 'd']) view.answered(id, 1, 1, false);
    view.answered('e', 2, 1, false); // a new window: the ended ones go first
    expect(view.size).toBe(1);
    for (const id of ['f', 'g', 'h']) view.answered(id, 2, 1, false);
    expect(view.size).toBe(3);
    expect(view.tryPass('e', 2, 100)).toBeUndefined(); // the oldest went
  });
});
