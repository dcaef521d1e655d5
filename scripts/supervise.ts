/**
 * Local "run everything": one child process per service (the same processes a cluster would
 * run), output prefixed with the service name, a crashed service restarted with backoff, and
 * Ctrl-C / SIGTERM passed to every child so each closes its workers, queues and browser cleanly.
 *
 *   tsx scripts/supervise.ts [service …]   (default: all services)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

const ROOT = path.resolve(__dirname, '..');
export const SERVICES = [
  'gateway',
  'scrape-worker',
  'crawl-worker',
  'extract-worker',
  'monitor-scheduler',
  'webhook-dispatcher',
] as const;

const wanted = process.argv.slice(2);
const services = wanted.length ? SERVICES.filter((s) => wanted.includes(s)) : [...SERVICES];
const children = new Map<string, ChildProcess>();
let stopping = false;

function start(name: string, restarts = 0): void {
  const cwd = path.join(ROOT, 'services', name);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd,
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.set(name, child);
  const pad = name.padEnd(18);
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    readline
      .createInterface({ input: stream })
      .on('line', (line) => process.stdout.write(`${pad}| ${line}\n`));
  }
  const startedAt = Date.now();
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (stopping) {
      if (children.size === 0) process.exit(0);
      return;
    }
    // A service that ran a while gets its restart count reset; a crash loop backs off to 30 s.
    const n = Date.now() - startedAt > 60_000 ? 0 : restarts + 1;
    const delay = Math.min(30_000, 500 * 2 ** n);
    process.stdout.write(`${pad}| exited (code ${code}, signal ${signal}); restarting in ${delay} ms\n`);
    setTimeout(() => !stopping && start(name, n), delay);
  });
}

function stopAll(signal: NodeJS.Signals): void {
  if (stopping) {
    for (const c of children.values()) c.kill('SIGKILL');
    process.exit(1);
  }
  stopping = true;
  process.stdout.write(`supervisor        | ${signal}: stopping ${children.size} services\n`);
  if (children.size === 0) process.exit(0);
  for (const c of children.values()) c.kill('SIGTERM');
  setTimeout(() => {
    for (const c of children.values()) c.kill('SIGKILL');
    process.exit(1);
  }, 25_000).unref();
}

process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));
for (const s of services) start(s);
