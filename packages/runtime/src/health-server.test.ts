import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { HEALTH_PATHS, type HealthServer, startHealthServer } from './health-server';

async function probe(port: number, pathname: string, method = 'GET') {
  const res = await fetch(`http://127.0.0.1:${port}${pathname}`, { method });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

/** A port nobody listens on right now (runService needs HEALTH_PORT > 0). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise((resolve) => s.close(resolve));
  return port;
}

async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what().catch(() => undefined);
    if (v !== undefined && ok(v)) return v;
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms (last: ${JSON.stringify(v)})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('startHealthServer', () => {
  let health: HealthServer;
  beforeEach(async () => {
    health = await startHealthServer({ port: 0, host: '127.0.0.1' });
  });
  afterEach(() => health.close());

  it('is not ready while starting, ready once marked, not ready again once stopping; alive throughout', async () => {
    expect(HEALTH_PATHS).toEqual({ readiness: '/healthz', liveness: '/livez' });
    expect(await probe(health.port, '/healthz')).toEqual({
      status: 503,
      body: { ok: false, state: 'starting' },
    });
    expect(await probe(health.port, '/livez')).toEqual({ status: 200, body: { ok: true } });
    health.markReady();
    expect(health.state).toBe('ready');
    expect(await probe(health.port, '/healthz')).toEqual({ status: 200, body: { ok: true } });
    expect(await probe(health.port, '/healthz?probe=1')).toEqual({ status: 200, body: { ok: true } });
    health.markStopping();
    expect(await probe(health.port, '/healthz')).toEqual({
      status: 503,
      body: { ok: false, state: 'stopping' },
    });
    expect(await probe(health.port, '/livez')).toEqual({ status: 200, body: { ok: true } });
    // A start() that resolves after the shutdown began does not make the service ready again.
    health.markReady();
    expect((await probe(health.port, '/healthz')).status).toBe(503);
  });

  it('answers 404 to every other path and method; HEAD works like GET without a body', async () => {
    health.markReady();
    for (const p of ['/', '/health', '/healthz/', '/metrics', '/livez/x']) {
      expect([p, (await probe(health.port, p)).status]).toEqual([p, 404]);
    }
    expect((await probe(health.port, '/healthz', 'POST')).status).toBe(404);
    expect((await probe(health.port, '/livez', 'DELETE')).status).toBe(404);
    expect(await probe(health.port, '/healthz', 'HEAD')).toEqual({ status: 200, body: undefined });
  });

  it('close() stops listening (and can be called twice)', async () => {
    const { port } = health;
    await Promise.all([health.close(), health.close()]);
    await expect(probe(port, '/livez')).rejects.toThrow();
  });

  it('fails to start on a port in use (runService then exits with that message)', async () => {
    await expect(startHealthServer({ port: health.port, host: '127.0.0.1' })).rejects.toThrow(/EADDRINUSE/);
  });
});

describe('runService with HEALTH_PORT', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('listens before start(), is ready after it, not ready from SIGTERM on, and closes the probe server last', async () => {
    const port = await freePort();
    let stdout = '';
    child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(__dirname, 'test-support', 'health-server-child.ts'),
        String(port),
        '1500',
        '1500',
      ],
      {
        cwd: path.resolve(__dirname, '..'),
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    child.stdout?.on('data', (d) => {
      stdout += String(d);
    });
    const exited = new Promise<number | null>((resolve) => child?.on('exit', (code) => resolve(code)));

    // Starting: alive, not ready.
    const starting = await until(
      () => probe(port, '/healthz'),
      () => true,
    );
    expect(stdout).not.toContain('started');
    expect(starting).toEqual({ status: 503, body: { ok: false, state: 'starting' } });
    expect((await probe(port, '/livez')).status).toBe(200);

    await until(
      () => probe(port, '/healthz'),
      (r) => r.status === 200,
    );
    expect(stdout).toContain('started');

    child.kill('SIGTERM');
    await until(
      async () => stdout,
      (s) => s.includes('closing'),
    );
    // The service's own close step is running: the probe server is still up, and not ready.
    expect(await probe(port, '/healthz')).toEqual({ status: 503, body: { ok: false, state: 'stopping' } });
    expect((await probe(port, '/livez')).status).toBe(200);
    expect(await exited).toBe(0);
    await expect(probe(port, '/livez')).rejects.toThrow();
  });
});
