import { EventEmitter } from 'node:events';
import { RedisErrorLog, redactRedisUrls } from './redis-errors';

function recorder() {
  const lines: Array<{ level: 'error' | 'info'; obj: Record<string, unknown>; msg?: string }> = [];
  return {
    lines,
    logger: {
      error: (obj: object, msg?: string) =>
        lines.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
      info: (obj: object, msg?: string) =>
        lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
    },
  };
}

describe('RedisErrorLog', () => {
  it('logs one line per role per interval, with the count suppressed since the last one', () => {
    let now = 1_000;
    const { lines, logger } = recorder();
    const log = new RedisErrorLog(logger, { intervalMs: 10_000, now: () => now });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
    log.report('producer', refused);
    for (let i = 0; i < 5; i++) {
      now += 1_000;
      log.report('producer', refused);
    }
    log.report('queue-events', refused); // another role has its own budget
    expect(lines.map((l) => [l.obj.role, l.obj.suppressed])).toEqual([
      ['producer', 0],
      ['queue-events', 0],
    ]);
    expect(lines[0]).toEqual({
      level: 'error',
      msg: 'redis error',
      obj: {
        role: 'producer',
        error: 'connect ECONNREFUSED 127.0.0.1:6379',
        code: 'ECONNREFUSED',
        suppressed: 0,
        nextLogInMs: 10_000,
      },
    });
    now = 11_000; // exactly one interval after the first line
    log.report('producer', refused);
    expect(lines.at(-1)?.obj).toMatchObject({ role: 'producer', suppressed: 5 });
  });

  it('says once when the connection is ready again, and logs the next outage at once', () => {
    let now = 0;
    const { lines, logger } = recorder();
    const log = new RedisErrorLog(logger, { intervalMs: 10_000, now: () => now });
    // Looks like an ioredis client to watch(): it also gets the `ready` listener.
    const conn = Object.assign(new EventEmitter(), { status: 'connecting', duplicate: () => undefined });
    log.watch(conn, 'rate-limit');
    conn.emit('ready'); // first connect: nothing to say
    expect(lines).toHaveLength(0);
    conn.emit('error', new Error('read ECONNRESET'));
    now += 500;
    conn.emit('error', new Error('connect ECONNREFUSED'));
    conn.emit('ready');
    expect(lines.map((l) => [l.level, l.msg, l.obj.errors ?? l.obj.suppressed])).toEqual([
      ['error', 'redis error', 0],
      ['info', 'redis connection ready again', 2],
    ]);
    now += 500; // well inside the interval, but a new outage
    conn.emit('error', new Error('connect ECONNREFUSED'));
    expect(lines).toHaveLength(3);
    conn.emit('ready');
    conn.emit('ready');
    expect(lines).toHaveLength(4);
  });

  it('watching a plain emitter (a BullMQ Queue) handles its errors; no logger means silence', () => {
    const queue = new EventEmitter();
    new RedisErrorLog(undefined).watch(queue, 'producer');
    expect(() => queue.emit('error', new Error('boom'))).not.toThrow();
  });

  it('never logs a Redis URL password', () => {
    expect(redactRedisUrls('cannot reach redis://default:hunter2@redis.internal:6379/0')).toBe(
      'cannot reach redis://default:***@redis.internal:6379/0',
    );
    expect(redactRedisUrls('rediss://:p%40ss@h:6380 and redis://h:6379')).toBe(
      'rediss://:***@h:6380 and redis://h:6379',
    );
    const { lines, logger } = recorder();
    new RedisErrorLog(logger).report('producer', new Error('bad url redis://u:topsecret@h'));
    expect(JSON.stringify(lines)).not.toContain('topsecret');
  });
});
