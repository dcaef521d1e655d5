/**
 * The service as separate processes (the ones `scripts/supervise.ts` runs), so each worker's memory —
 * with its Chromium — is measurable on its own. A memory guard SIGKILLs a service tree that passes
 * GUARD_MB (PSS; this machine has to survive the cells that still fail) and restarts it; the cell
 * running then is reported red.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { SERVICES as ALL_SERVICES, compiledService } from '@wcs/runtime';
import { processTree } from './process-memory';

/** Every service but the webhook-dispatcher (no hostile cell posts a webhook). */
export const SERVICES = ALL_SERVICES.filter((s) => s !== 'webhook-dispatcher');
export type ServiceName = (typeof SERVICES)[number];

export interface ProcessStack {
  baseUrl: string;
  logDir: string;
  /** Root pid per running service. */
  pids(): Map<string, number>;
  /** SIGKILL a service's whole tree (it and its Chromium) and start it again. */
  killAndRestart(name: ServiceName): Promise<void>;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
    const t = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

async function waitHealthy(baseUrl: string, deadlineMs: number): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    try {
      if ((await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(1_000) })).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`gateway not healthy at ${baseUrl} within ${deadlineMs} ms`);
}

export async function startProcessStack(env: Record<string, string>): Promise<ProcessStack> {
  const port = await freePort();
  const logDir = path.join('/tmp', `wcs-hostile-${process.pid}`);
  mkdirSync(logDir, { recursive: true });
  const full: Record<string, string> = {
    QUEUE_PREFIX: `hostile-${randomUUID().slice(0, 8)}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_FREE: '100000',
    RATE_LIMIT_HOBBY: '100000',
    ...env,
  };
  const children = new Map<ServiceName, ChildProcess>();
  const start = (name: ServiceName) => {
    const { cwd, args } = compiledService(name);
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...process.env, ...full },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log = createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    children.set(name, child);
  };
  for (const s of SERVICES) start(s);
  const baseUrl = `http://127.0.0.1:${port}`;
  const stopAll = async () => {
    for (const c of children.values()) c.kill('SIGTERM');
    await Promise.all(
      [...children.values()].map(async (c) => {
        if (!(await waitExit(c, 20_000)) && c.pid) for (const pid of processTree(c.pid)) killQuietly(pid);
      }),
    );
  };
  try {
    await waitHealthy(baseUrl, 60_000);
  } catch (err) {
    await stopAll();
    throw err;
  }
  return {
    baseUrl,
    logDir,
    pids: () => {
      const m = new Map<string, number>();
      for (const [name, c] of children) if (c.pid && c.exitCode === null) m.set(name, c.pid);
      return m;
    },
    async killAndRestart(name) {
      const child = children.get(name);
      if (child?.pid) for (const pid of processTree(child.pid)) killQuietly(pid);
      if (child) await waitExit(child, 10_000);
      start(name);
      if (name === 'gateway') await waitHealthy(baseUrl, 60_000);
    },
    close: stopAll,
  };
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
