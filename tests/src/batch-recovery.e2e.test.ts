import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { compiledService } from '@wcs/runtime';
import { type FixtureSite, startFixtureSite } from '@wcs/testing';
import request from 'supertest';
import { balanceOf, createTestAccount, pollUntil, type Stack, startStack } from './harness';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function waitExit(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  await pollUntil(
    () =>
      new Promise<true | undefined>((resolve) => {
        const s = net.connect({ port, host: '127.0.0.1' });
        s.once('connect', () => {
          s.destroy();
          resolve(true);
        });
        s.once('error', () => resolve(undefined));
      }),
    10_000,
    50,
  );
  return child;
}

const RECOVERY_ENV = {
  WORKER_LOCK_MS: '2000',
  WORKER_STALLED_INTERVAL_MS: '1000',
  RECONCILE_INTERVAL_MS: '300',
  RECONCILE_MIN_AGE_MS: '1500',
};

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({ pages: 40 });
});
afterAll(async () => {
  await site?.close();
});

async function batchStatus(stack: Stack, id: string, auth: Record<string, string>) {
  const res = await request(stack.url).get(`/v1/batch/scrape/${id}`).set(auth);
  return res.body;
}

it('a batch completes after its worker is killed mid-way: nothing lost, billed once', async () => {
  // Gateway only; the first worker is a separate process we can kill -9.
  const stack = await startStack({ worker: false, env: RECOVERY_ENV });
  const account = await createTestAccount({ credits: 100 });
  const env = { ...process.env, ...stack.env, WORKER_CONCURRENCY: '1', LOG_LEVEL: 'silent' };
  const { cwd, args } = compiledService('scrape-worker');
  const victim = spawn(process.execPath, args, {
    cwd,
    env,
    stdio: 'ignore',
  });
  let rescuer: Stack | null = null;
  try {
    const urls = Array.from({ length: 30 }, (_, i) => `${site.url}/article/${i}?delay=150`);
    const start = await request(stack.url).post('/v1/batch/scrape').set(account.auth).send({ urls });
    expect(start.status).toBe(202);
    const id: string = start.body.id;

    await pollUntil(
      async () => ((await batchStatus(stack, id, account.auth)).completed >= 3 ? true : undefined),
      60_000,
      50,
    );
    victim.kill('SIGKILL');
    await waitExit(victim);
    const atKill = await batchStatus(stack, id, account.auth);
    expect(atKill.status).toBe('processing');
    expect(atKill.completed).toBeLessThan(30);

    // A new worker takes over: the dead worker's job is found stalled, the rest were waiting.
    rescuer = await startStack({ env: { ...RECOVERY_ENV, QUEUE_PREFIX: stack.env.QUEUE_PREFIX ?? '' } });
    const done = await pollUntil(async () => {
      const b = await batchStatus(stack, id, account.auth);
      return b.status === 'done' ? b : undefined;
    }, 90_000);
    expect(done).toMatchObject({ total: 30, completed: 30, failed: 0, creditsUsed: 30 });
    expect(done.results.map((r: { url: string }) => r.url)).toEqual(urls);
    // Billed once: exactly the 30 credits of the upfront charge.
    expect(await balanceOf(account.accountId)).toBe(70);
    // Nothing ran twice except, at most, the one item in flight when the worker died.
    const fetches = urls.reduce((n, _u, i) => n + site.hits(`/article/${i}`), 0);
    expect(fetches).toBeGreaterThanOrEqual(30);
    expect(fetches).toBeLessThanOrEqual(31);
  } finally {
    victim.kill('SIGKILL');
    await rescuer?.close();
    await stack.close();
  }
});

it('a batch survives a Redis restart that loses every job', async () => {
  const port = await freePort();
  let redis = await startRedis(port);
  const stack = await startStack({
    env: { ...RECOVERY_ENV, REDIS_URL: `redis://127.0.0.1:${port}`, WORKER_CONCURRENCY: '2' },
  });
  try {
    const account = await createTestAccount({ credits: 50 });
    const urls = Array.from({ length: 20 }, (_, i) => `${site.url}/article/${i}?delay=100&r=1`);
    const start = await request(stack.url).post('/v1/batch/scrape').set(account.auth).send({ urls });
    expect(start.status).toBe(202);
    const id: string = start.body.id;
    await pollUntil(
      async () => ((await batchStatus(stack, id, account.auth)).completed >= 2 ? true : undefined),
      60_000,
      50,
    );

    redis.kill('SIGKILL');
    await waitExit(redis);
    redis = await startRedis(port); // empty: every queued job is gone

    const done = await pollUntil(async () => {
      const b = await batchStatus(stack, id, account.auth);
      return b.status === 'done' ? b : undefined;
    }, 90_000);
    expect(done).toMatchObject({ total: 20, completed: 20, failed: 0, creditsUsed: 20 });
    expect(await balanceOf(account.accountId)).toBe(30);
  } finally {
    await stack.close();
    redis.kill('SIGKILL');
    await waitExit(redis);
  }
});
