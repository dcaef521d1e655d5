/**
 * The run command's process tree as a user gets it: `node scripts/dist/supervise.js` (what
 * scripts/run.sh execs after `pnpm build`) runs one compiled `node dist/main.js` per service and
 * nothing else — no pnpm, tsx or esbuild — restarts a service that dies, and stops them all on
 * SIGTERM. Needs the build (scripts/test.sh runs it first).
 */
import type { ChildProcess } from 'node:child_process';
import { SERVICE_NODE_FLAGS, SERVICES } from '@wcs/runtime';
import { processTreeOf, type TreeProcess } from '@wcs/testing';
import { freePort } from '../faults/private-redis';
import { pollUntil } from './harness';
import { killSupervisorTree, spawnSupervisor } from './supervisor-process';

let supervisor: ChildProcess;
let port = 0;
let lines: string[] = [];

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
  ({ child: supervisor, lines } = spawnSupervisor([], { port, queuePrefix: 't-run' }));
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
  killSupervisorTree(supervisor);
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
