/**
 * The run command's supervisor as the run-command e2e tests start it (`node scripts/dist/supervise.js
 * [args]`, compiled): on the test stores, a queue prefix of its own, the reconcilers kept off other
 * files' batches and crawls in the shared test database, its output collected line by line.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import { processTreeOf } from '@wcs/testing';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from './harness';

const ROOT = path.resolve(__dirname, '../..');
const SUPERVISOR = path.join(ROOT, 'scripts/dist/supervise.js');

export interface SupervisorProcess {
  child: ChildProcess;
  /** Every line it printed so far (its services' output, prefixed with their names). */
  lines: string[];
}

/** Starts the supervisor with `args`, the gateway on `port`; `env` adds to the test's environment. */
export function spawnSupervisor(
  args: string[],
  opts: { port: number; queuePrefix: string; env?: Record<string, string> },
): SupervisorProcess {
  const child = spawn(process.execPath, [SUPERVISOR, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: `${opts.queuePrefix}-${randomUUID().slice(0, 8)}`,
      PORT: String(opts.port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'auto',
      // Shared test database: keep the reconcilers off other files' batches and crawls.
      RECONCILE_MIN_AGE_MS: '600000',
      CRAWL_RECONCILE_MIN_AGE_MS: '600000',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (l) => lines.push(l));
  return { child, lines };
}

/** A supervisor still running at the end of a file: it and every process below it, killed. */
export function killSupervisorTree(child: ChildProcess | undefined): void {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const tree = processTreeOf(child.pid as number);
  child.kill('SIGKILL');
  for (const p of tree) spawnSync('kill', ['-9', String(p.pid)]);
}
