/**
 * The cancel subscriber's marker lookup, against the real Redis: skipped for a job taken well after
 * the channel was subscribed (the message cannot have been missed), read for a job taken before or
 * while the connection was down; a message that came before its job registered still stops it, and
 * after a reconnect the markers of the running jobs are read.
 */
import { randomUUID } from 'node:crypto';
import {
  CancelSubscriber,
  cancelMarkerKey,
  createRedisConnection,
  publishCancel,
  SUBSCRIBED_MARGIN_MS,
} from '@wcs/queues';
import type { Redis } from 'ioredis';
import { pollUntil, TEST_REDIS_URL } from './harness';

describe('cancel subscriber: when a starting job reads its marker', () => {
  let prefix: string;
  let sub: Redis;
  let commands: Redis;
  let other: Redis;
  let cancels: CancelSubscriber;

  beforeEach(async () => {
    prefix = `t-${randomUUID().slice(0, 8)}`;
    sub = createRedisConnection(TEST_REDIS_URL, 'worker');
    commands = createRedisConnection(TEST_REDIS_URL, 'worker');
    other = createRedisConnection(TEST_REDIS_URL, 'worker');
    cancels = new CancelSubscriber(sub, commands, prefix, 'scrape');
    await cancels.ready;
  });
  afterEach(() => {
    cancels.close();
    commands.disconnect();
    other.disconnect();
  });

  /**
   * Whether the marker lookup reached Redis during `fn`: the commands connection's last command as
   * Redis lists it (CLIENT LIST `cmd`), after a CLIENT SETNAME of its own just before.
   */
  const lookedUp = async <T>(fn: () => Promise<T>): Promise<{ value: T; lookedUp: boolean }> => {
    const name = `${prefix}-${randomUUID().slice(0, 6)}`;
    await commands.client('SETNAME', name);
    const value = await fn();
    const list = String(await other.client('LIST'));
    const line = list.split('\n').find((l) => l.includes(` name=${name} `));
    if (!line) throw new Error(`connection ${name} not listed`);
    const cmd = / cmd=(\S+)/.exec(line)?.[1];
    return { value, lookedUp: cmd === 'get' };
  };

  it('skips the lookup for a job taken after the subscription (and its margin); reads it otherwise', async () => {
    const late = Date.now() + SUBSCRIBED_MARGIN_MS;
    // A marker a skipped lookup cannot see: in service only ever set by a cancel whose message the
    // subscriber hears (a cancel is published once a worker holds the job).
    await commands.set(cancelMarkerKey(prefix, 'scrape', 'j'), 'timeout', 'PX', 60_000);
    expect(await lookedUp(() => cancels.watch('j', new AbortController(), late))).toEqual({
      value: null,
      lookedUp: false,
    });
    // Taken before the subscription, or with no take time: the marker is read.
    const early = Date.now() - 60_000;
    expect(await lookedUp(() => cancels.watch('j', new AbortController(), early))).toEqual({
      value: 'timeout',
      lookedUp: true,
    });
    expect(await lookedUp(() => cancels.watch('j', new AbortController()))).toEqual({
      value: 'timeout',
      lookedUp: true,
    });
  });

  it('a cancel heard before its job registered stops the job without a lookup', async () => {
    await publishCancel(other, prefix, 'scrape', { jobId: 'early', reason: 'disconnect' });
    // The message is in the subscriber's socket before the answer to its PING.
    await sub.ping();
    const late = Date.now() + SUBSCRIBED_MARGIN_MS;
    expect(await lookedUp(() => cancels.watch('early', new AbortController(), late))).toEqual({
      value: 'disconnect',
      lookedUp: false,
    });
  });

  it('while the connection is down every job reads its marker; after it, the running ones are checked', async () => {
    const running = new AbortController();
    const late = Date.now() + SUBSCRIBED_MARGIN_MS;
    expect(await cancels.watch('run', running, late)).toBeNull();
    // The cancel sent while the subscriber is away: its message is lost, its marker stays.
    sub.disconnect();
    await pollUntil(async () => (sub.status === 'end' ? true : undefined), 5_000, 5);
    await commands.set(cancelMarkerKey(prefix, 'scrape', 'run'), 'timeout', 'PX', 60_000);
    // A job starting now reads its marker, however long after the first subscription it was taken.
    await commands.set(cancelMarkerKey(prefix, 'scrape', 'down'), 'shutdown', 'PX', 60_000);
    expect(await cancels.watch('down', new AbortController(), late + 60_000)).toBe('shutdown');
    expect(running.signal.aborted).toBe(false);
    // Once subscribed again, the running job's marker is read and the job aborted.
    void sub.connect();
    await pollUntil(async () => (running.signal.aborted ? true : undefined), 10_000, 10);
    expect(String(running.signal.reason)).toMatch(/cancelled: the caller stopped waiting/);
  });
});
