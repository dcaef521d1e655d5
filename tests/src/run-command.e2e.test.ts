/**
 * The run command's process tree as a user gets it: `node scripts/dist/supervise.js` (what
 * scripts/run.sh execs after `pnpm build`) runs one compiled `node dist/main.js` per service and
 * nothing else — no pnpm, tsx or esbuild — restarts a service that dies, and stops them all on
 * SIGTERM. Needs the build (scripts/test.sh runs it first).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import { SERVICE_NODE_FLAGS, SERVICES } from '@wcs/runtime';
import { processTreeOf, type TreeProcess } from '@wcs/testing';
import { freePort } from '../faults/private-redis';
import { pollUntil, TEST_DATABASE_URL, TEST_REDIS_URL } from './harness';

const ROOT = path.resolve(__dirname, '../..');
const SUPERVISOR = path.join(ROOT, 'scripts/dist/supervise.js');

let supervisor: ChildProcess;
let port = 0;
const lines: string[] = [];

/** The supervisor's direct children, by service (from each one's working directory). */
function services(): Map<string, TreeProcess> {
  const out = new Map<string, TreeProcess>();
  for (const p of processTreeOf(supervisor.pid as number)) {
    const name = /\/services\/([^/]+)$/.exec(p.cwd)?.[1];
    if (name && p.ppid === supervisor.pid) out.set(name, p);
  }
  return out;
}

beforeAll(async () => {
  port = await freePort();
  supervisor = spawn(process.execPath, [SUPERVISOR], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: `t-run-${randomUUID().slice(0, 8)}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'auto',
      // Shared test database: keep the reconcilers off other files' batches and crawls.
      RECONCILE_MIN_AGE_MS: '600000',
      CRAWL_RECONCILE_MIN_AGE_MS: '600000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  readline
    .createInterface({ input: supervisor.stdout as NodeJS.ReadableStream })
    .on('line', (l) => lines.push(l));
  await pollUntil(
    async () => {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
      return res?.ok && services().size === SERVICES.length ? true : undefined;
    },
    60_000,
    200,
  );
}, 90_000);

afterAll(async () => {
  if (supervisor && supervisor.exitCode === null && supervisor.signalCode === null) {
    supervisor.kill('SIGKILL');
    for (const p of processTreeOf(supervisor.pid as number)) spawnSync('kill', ['-9', String(p.pid)]);
  }
});

it('runs each service as a compiled node process, and nothing else', () => {
  const tree = processTreeOf(supervisor.pid as number);
  const running = services();
  expect([...running.keys()].sort()).toEqual([...SERVICES].sort());
  for (const p of running.values()) {
    expect(p.args).toBe(`${process.execPath} ${SERVICE_NODE_FLAGS.join(' ')} dist/main.js`);
  }
  // The supervisor and its six services; no tool processes (pnpm, tsx, esbuild) anywhere below.
  expect(tree.filter((p) => /pnpm|tsx|esbuild/.test(p.args))).toEqual([]);
  expect(
    tree.filter(
      (p) => p.pid !== supervisor.pid && !running.has(/\/services\/([^/]+)$/.exec(p.cwd)?.[1] ?? ''),
    ),
  ).toEqual([]);
});

it("prefixes each service's JSON log lines with its name (stdout is not a terminal)", async () => {
  await pollUntil(async () => (lines.some((l) => l.startsWith('gateway ')) ? true : undefined), 10_000, 100);
  const gateway = lines.filter((l) => /^gateway\s+\| /.test(l));
  const first = JSON.parse(gateway[0]?.replace(/^gateway\s+\| /, '') ?? '') as {
    service: string;
    msg: string;
  };
  expect(first.service).toBe('gateway');
});

it('restarts a service that dies', async () => {
  const before = services().get('webhook-dispatcher');
  expect(before).toBeDefined();
  process.kill(before?.pid as number, 'SIGKILL');
  const after = await pollUntil(async () => {
    const now = services().get('webhook-dispatcher');
    return now && now.pid !== before?.pid ? now : undefined;
  }, 30_000);
  expect(after.args).toContain('dist/main.js');
  expect(
    lines.some((l) => /^webhook-dispatcher\s*\| exited \(code null, signal SIGKILL\); restarting/.test(l)),
  ).toBe(true);
});

it('stops every service on SIGTERM and exits 0', async () => {
  const pids = [...services().values()].map((p) => p.pid);
  const exited = new Promise<number | null>((resolve) => supervisor.once('exit', (code) => resolve(code)));
  supervisor.kill('SIGTERM');
  expect(await exited).toBe(0);
  const alive = pids.filter((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  });
  expect(alive).toEqual([]);
}, 40_000);
