import { randomUUID } from 'node:crypto';
import { rawEnv } from '@wcs/config';
import { createRedisConnection, type RedisClient } from '@wcs/queues';
import { HostSlots } from './host-slots';

let redis: RedisClient;
beforeAll(() => {
  redis = createRedisConnection(rawEnv('REDIS_URL') ?? 'redis://127.0.0.1:6379', 'worker');
});
afterAll(() => redis.disconnect());

const request = (host: string, pageId: string) => ({
  host,
  crawlId: 'c1',
  pageId,
  delayMs: 0,
  holdMs: 60_000,
});

/** Two worker processes sharing one prefix (one Redis semaphore per host). */
function replicas(hostConcurrency: number) {
  const prefix = `test-slots-${randomUUID()}`;
  return {
    prefix,
    replicaA: new HostSlots(redis, prefix, hostConcurrency, { localWaitMs: 5_000 }),
    replicaB: new HostSlots(redis, prefix, hostConcurrency, { localWaitMs: 5_000 }),
  };
}

/** Slots of a process of their own, on a prefix of their own (a test's keys are only its own). */
function slotsOn(hostConcurrency: number, opts: ConstructorParameters<typeof HostSlots>[3] = {}) {
  const prefix = `test-slots-${randomUUID()}`;
  return { prefix, slots: new HostSlots(redis, prefix, hostConcurrency, opts) };
}

/** The host's semaphore in Redis. */
function semaphoreKey(prefix: string, host: string): string {
  return `${prefix}:crawl-politeness:host:${host}`;
}

/** Resolves once Redis's clock has passed `ms` (epoch ms): the clock the scripts judge liveness by. */
async function untilRedisTime(ms: number): Promise<void> {
  for (;;) {
    const [sec, micro] = await redis.time();
    if (Number(sec) * 1000 + Math.floor(Number(micro) / 1000) > ms) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A first page takes the host's slot: its semaphore key and the lease it holds there. */
async function firstLease(prefix: string, slots: HostSlots, host: string, pageId: string) {
  expect(await slots.acquire(request(host, pageId))).toBe(0);
  const key = semaphoreKey(prefix, host);
  const lease = await redis.zrange(key, 0, -1, 'WITHSCORES');
  expect(lease).toHaveLength(2);
  return { key, lease };
}

describe('HostSlots', () => {
  it('a page waits in the process for a slot it holds itself and takes it over at release, without Redis', async () => {
    const { prefix, slots } = slotsOn(1, { localWaitMs: 5_000 });
    const { key, lease } = await firstLease(prefix, slots, 'a.test', 'p1');
    let second: number | undefined;
    const waiting = slots.acquire(request('a.test', 'p2')).then((w) => {
      second = w;
      return w;
    });
    // Held by p1: p2 is parked here (a bounce would have answered at once with a retry delay).
    await new Promise((r) => setImmediate(r));
    expect(second).toBeUndefined();
    await slots.release('a.test', 'p1');
    expect(await waiting).toBe(0);
    // The same lease, expiry unchanged: the slot passed from p1 to p2 without a word to Redis.
    expect(await redis.zrange(key, 0, -1, 'WITHSCORES')).toEqual(lease);
    await slots.release('a.test', 'p2');
    expect(await redis.zcard(key)).toBe(0);
  });

  it('a released slot no page waits for is kept a moment: the next page takes it without Redis, a spaced page asks anew, close gives kept slots back', async () => {
    const { prefix, slots } = slotsOn(2, { idleKeepMs: 60_000 });
    const { key, lease } = await firstLease(prefix, slots, 'k.test', 'p1');
    await slots.release('k.test', 'p1');
    // Still this process's in Redis, and the host's next page takes the same lease, expiry unchanged.
    expect(await redis.zrange(key, 0, -1, 'WITHSCORES')).toEqual(lease);
    expect(await slots.acquire(request('k.test', 'p2'))).toBe(0);
    expect(await redis.zrange(key, 0, -1, 'WITHSCORES')).toEqual(lease);
    await slots.release('k.test', 'p2');
    // A page whose crawl spaces its requests keeps that spacing through Redis: a slot of its own.
    expect(await slots.acquire({ ...request('k.test', 'p3'), delayMs: 1 })).toBe(0);
    expect(await redis.zcard(key)).toBe(2);
    await slots.release('k.test', 'p3');
    expect(await redis.zcard(key)).toBe(2);
    await slots.close();
    expect(await redis.zcard(key)).toBe(0);
    expect(slots.trackedHosts).toBe(0);
  });

  it('a kept slot no page takes goes back to Redis by itself, and the host is forgotten', async () => {
    const { prefix, slots } = slotsOn(1, { idleKeepMs: 20 });
    expect(await slots.acquire(request('i.test', 'p1'))).toBe(0);
    const key = semaphoreKey(prefix, 'i.test');
    await slots.release('i.test', 'p1');
    expect(await redis.zcard(key)).toBe(1);
    // Waits for the slot's own timer (polled: no fixed sleep).
    for (let i = 0; i < 500 && (await redis.zcard(key)) > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await redis.zcard(key)).toBe(0);
    expect(slots.trackedHosts).toBe(0);
  });

  it('an old lease, or a page whose crawl spaces its requests, goes through Redis again', async () => {
    for (const [leaseReuseMs, delayMs] of [
      [0, 0],
      [60_000, 5_000],
    ] as const) {
      const { prefix, slots } = slotsOn(1, { localWaitMs: 5_000, leaseReuseMs });
      const host = `g${leaseReuseMs}.test`;
      expect(await slots.acquire({ ...request(host, 'p1'), delayMs })).toBe(0);
      const key = semaphoreKey(prefix, host);
      const [first] = await redis.zrange(key, 0, -1);
      const waiting = slots.acquire({ ...request(host, 'p2'), delayMs });
      await new Promise((r) => setImmediate(r));
      await slots.release(host, 'p1');
      const wait = await waiting;
      if (delayMs > 0) {
        // The crawl's spacing comes from Redis: p2 was given its start time there.
        expect(wait).toBeGreaterThan(0);
        expect(await redis.zcard(key)).toBe(0);
        continue;
      }
      expect(wait).toBe(0);
      const [second] = await redis.zrange(key, 0, -1);
      expect(second).toBeDefined();
      expect(second).not.toBe(first);
      await slots.release(host, 'p2');
      expect(await redis.zcard(key)).toBe(0);
    }
  });

  it('hostConcurrency pages wait long per host, the others briefly; a waiter whose wait runs out bounces', async () => {
    const slots = new HostSlots(redis, `test-slots-${randomUUID()}`, 1, {
      localWaitMs: 5_000,
      overflowWaitMs: 50,
    });
    expect(await slots.acquire(request('b.test', 'p1'))).toBe(0);
    const long = slots.acquire(request('b.test', 'p2'));
    // However many wait already, a newcomer waits briefly too (no bounce at once).
    const brief = ['p3', 'p4', 'p5', 'p6', 'p7'].map((p) => slots.acquire(request('b.test', p)));
    const started = Date.now();
    // p1 is held on: the brief waiters give up after 50 ms and bounce; the long one still waits.
    for (const w of await Promise.all(brief)) expect(w).toBeGreaterThanOrEqual(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    // Another host is not affected by b.test's queue.
    expect(await slots.acquire(request('c.test', 'q1'))).toBe(0);
    await slots.release('c.test', 'q1');
    await slots.release('b.test', 'p1');
    expect(await long).toBe(0);
    await slots.release('b.test', 'p2');
  });

  it('a released slot goes to the page waiting for it, not to a newcomer of the same moment', async () => {
    const slots = new HostSlots(redis, `test-slots-${randomUUID()}`, 1, {
      localWaitMs: 5_000,
      overflowWaitMs: 5_000,
      // Every hand-over goes through Redis, which is the race this test is about.
      leaseReuseMs: 0,
    });
    expect(await slots.acquire(request('e.test', 'p1'))).toBe(0);
    const order: string[] = [];
    const waiter = slots.acquire(request('e.test', 'p2')).then((w) => {
      order.push(`p2:${w}`);
    });
    await new Promise((r) => setImmediate(r));
    const released = slots.release('e.test', 'p1');
    // Arrives while the hand-over is on its way to Redis: it queues instead of racing for the slot.
    const newcomer = slots.acquire(request('e.test', 'p3')).then((w) => {
      order.push(`p3:${w}`);
    });
    await released;
    await waiter;
    expect(order).toEqual(['p2:0']);
    await slots.release('e.test', 'p2');
    await newcomer;
    expect(order).toEqual(['p2:0', 'p3:0']);
    await slots.release('e.test', 'p3');
  });

  it('a long waiter that is never served bounces after its local wait', async () => {
    const slots = new HostSlots(redis, `test-slots-${randomUUID()}`, 1, {
      localWaitMs: 100,
      overflowWaitMs: 50,
    });
    expect(await slots.acquire(request('d.test', 'p1'))).toBe(0);
    expect(await slots.acquire(request('d.test', 'p2'))).toBeGreaterThanOrEqual(50);
    await slots.release('d.test', 'p1');
    expect(await slots.acquire(request('d.test', 'p3'))).toBe(0);
    await slots.release('d.test', 'p3');
  });

  it("a page of a replica holding none of a busy host's slots asks again shortly, gets the next free one, or bounces at its bound", async () => {
    const { prefix, replicaA, replicaB } = replicas(1);
    expect(await replicaA.acquire(request('d.test', 'p1'))).toBe(0);
    let got: number | undefined;
    const polling = replicaB.acquire(request('d.test', 'q1')).then((w) => {
      got = w;
      return w;
    });
    // Several asks later q1 still waits (a bounce would have answered at once with a retry delay).
    for (let i = 0; i < 3; i++) await redis.ping();
    await new Promise((r) => setTimeout(r, 60));
    expect(got).toBeUndefined();
    await replicaA.release('d.test', 'p1');
    expect(await polling).toBe(0);
    // A replica that waits no longer than 100 ms bounces once that has passed.
    const brief = new HostSlots(redis, prefix, 1, { localWaitMs: 100 });
    const started = Date.now();
    expect(await brief.acquire(request('d.test', 'r1'))).toBeGreaterThanOrEqual(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    await replicaB.release('d.test', 'q1');
  });

  it('the replica Redis refused gets the next free slot before the one that freed it asks again', async () => {
    const prefix = `test-slots-${randomUUID()}`;
    // leaseReuseMs 0: every release goes back to Redis (as an aged lease does).
    const replicaA = new HostSlots(redis, prefix, 1, { localWaitMs: 5_000, leaseReuseMs: 0 });
    const replicaB = new HostSlots(redis, prefix, 1, { localWaitMs: 5_000 });
    expect(await replicaA.acquire(request('h.test', 'a1'))).toBe(0);
    const order: string[] = [];
    const b1 = replicaB.acquire(request('h.test', 'b1')).then(() => order.push('b1'));
    await new Promise((r) => setTimeout(r, 60)); // B has been refused: it is `wanted`
    const a2 = replicaA.acquire(request('h.test', 'a2')).then(() => order.push('a2'));
    await new Promise((r) => setImmediate(r));
    await replicaA.release('h.test', 'a1');
    await b1;
    expect(order).toEqual(['b1']);
    await replicaB.release('h.test', 'b1');
    await a2;
    expect(order).toEqual(['b1', 'a2']);
    await replicaA.release('h.test', 'a2');
    // a2 was woken, refused, then asked again: nothing of it is left counted here.
    expect(replicaA.trackedHosts).toBe(0);
    expect(replicaB.trackedHosts).toBe(0);
  });

  it('with the host shared between replicas, a page waits for its own process to release a slot', async () => {
    const { prefix, replicaA, replicaB } = replicas(2);
    expect(await replicaA.acquire(request('f.test', 'a1'))).toBe(0);
    expect(await replicaB.acquire(request('f.test', 'b1'))).toBe(0);
    // Redis says busy (B holds the other slot), but A holds one: a2 waits for A's release.
    let got: number | undefined;
    const waiting = replicaA.acquire(request('f.test', 'a2')).then((w) => {
      got = w;
      return w;
    });
    const key = semaphoreKey(prefix, 'f.test');
    // One connection answers in order: after this reply, a2's ask has been answered too.
    await redis.ping();
    await new Promise((r) => setImmediate(r));
    expect(got).toBeUndefined(); // a bounce would have answered with a retry delay
    const held = (await redis.zrange(key, 0, -1)).sort();
    expect(held).toHaveLength(2);
    await replicaA.release('f.test', 'a1');
    expect(await waiting).toBe(0);
    // a1's slot passed to a2 here: B still holds the other one.
    expect((await redis.zrange(key, 0, -1)).sort()).toEqual(held);
    await replicaA.release('f.test', 'a2');
    await replicaB.release('f.test', 'b1');
  });

  it('a replica that stops beating (killed) loses its slots to a living one that waits for them; a beating one keeps its own', async () => {
    const prefix = `test-slots-${randomUUID()}`;
    const key = semaphoreKey(prefix, 'k.test');
    const alive = `${prefix}:crawl-politeness:alive`;
    const wanted = `${prefix}:crawl-politeness:wanted:k.test`;
    const living = new HostSlots(redis, prefix, 2, { localWaitMs: 30_000, aliveMs: 1_000, watchMs: 20 });
    const killed = new HostSlots(redis, prefix, 2, { localWaitMs: 30_000, aliveMs: 1_000 });
    expect(await killed.acquire(request('k.test', 'b1'))).toBe(0);
    const [killedMember = ''] = await redis.zrange(key, 0, -1);
    const killedToken = killedMember.split(':')[0] ?? '';
    const grantedUntil = Number(await redis.zscore(alive, killedToken));
    expect(await living.acquire(request('k.test', 'a1'))).toBe(0);
    let got: number | undefined;
    const waiting = living.acquire(request('k.test', 'a2')).then((w) => {
      got = w;
      return w;
    });
    // Past the liveness its grant gave it, the holder still beats: the waiting page, refused again
    // after that (the living replica asks once more), does not get the holder's slot.
    await untilRedisTime(grantedUntil);
    const asked = living.asks;
    while (got === undefined && living.asks === asked) await new Promise((r) => setTimeout(r, 10));
    // Holding a slot, the living replica does not claim the host's next free slot ahead of others.
    expect(await redis.exists(wanted)).toBe(0);
    expect(Number(await redis.zscore(alive, killedToken))).toBeGreaterThan(grantedUntil);
    expect(got).toBeUndefined();
    expect(await redis.zrange(key, 0, -1)).toContain(killedMember);
    // Killed: no more beats, and b1 is never released. Once its liveness lapses, a2 takes its slot.
    await killed.close();
    expect(await waiting).toBe(0);
    const members = await redis.zrange(key, 0, -1);
    expect(members).toHaveLength(2);
    expect(members).not.toContain(killedMember);
    await living.release('k.test', 'a1');
    await living.release('k.test', 'a2');
    await living.close();
    expect(living.trackedHosts).toBe(0);
  });
});
