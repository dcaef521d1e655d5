import type { RedisClient } from '@wcs/queues';

// INCR + PEXPIRE in one round trip, atomic; returns [count, ttlMs].
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { n, redis.call('PTTL', KEYS[1]) }`;

/**
 * Fixed-window counters in Redis: the API's rate limit per key and the dashboard's sign-in
 * throttle per address. `name` identifies what is counted; the window number ends the key.
 */
export function fixedWindowKey(
  name: string,
  windowMs: number,
  now = Date.now(),
): { key: string; window: number } {
  const window = Math.floor(now / windowMs);
  return { key: `${name}:${window}`, window };
}

/** Count one hit; the key expires with its window. */
export async function countHit(
  redis: RedisClient,
  key: string,
  windowMs: number,
): Promise<{ count: number; ttlMs: number }> {
  const [count, ttlMs] = (await redis.eval(HIT_SCRIPT, 1, key, String(windowMs))) as [number, number];
  return { count, ttlMs };
}

/** The window's count so far, without counting. */
export async function peekCount(redis: RedisClient, key: string): Promise<number> {
  return Number((await redis.get(key)) ?? 0);
}
