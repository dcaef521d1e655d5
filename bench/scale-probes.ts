/** Probes of the scale benches: a process's CPU seconds, Redis memory (all of it, and one prefix's keys). */
import { readFileSync } from 'node:fs';
import type { QueueProducer } from '@wcs/queues';

type Redis = QueueProducer['connection'];

/** utime + stime of a process (its threads included), in seconds; 0 when it is gone. */
export function statSeconds(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * Redis `used_memory` (the whole server: other users of a shared Redis count too) and the bytes of
 * the keys under `prefix` (MEMORY USAGE of each, found by SCAN).
 */
export async function redisBytes(
  redis: Redis,
  prefix: string,
): Promise<{ used: number; ours: number; keys: number }> {
  const info = await redis.info('memory');
  const used = Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
  let ours = 0;
  let keys = 0;
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (found.length > 0) {
      const pipe = redis.pipeline();
      for (const k of found) pipe.memory('USAGE', k);
      for (const [, v] of (await pipe.exec()) ?? []) ours += Number(v ?? 0);
      keys += found.length;
    }
  } while (cursor !== '0');
  return { used, ours, keys };
}
