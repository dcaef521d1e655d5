/**
 * Local "run everything": one child process per service (the same processes a cluster would
 * run: `node <SERVICE_NODE_FLAGS> dist/main.js`, compiled by `pnpm build`), output prefixed with
 * the service name (pretty-printed when this terminal is a TTY), a crashed service restarted with
 * backoff, and Ctrl-C / SIGTERM passed to every child so each closes its workers, queues and
 * browser cleanly. No tsx, pnpm or esbuild process runs under it.
 *
 *   node scripts/dist/supervise.js [--with-stores] [service …]   (default: all services)
 *   node scripts/dist/supervise.js [--with-stores] --one-process
 *
 * `--one-process` runs every service in ONE child (`services/one-process`: the workers share one
 * content pool and one renderer), for small machines; restarts, backoff and signals are the same.
 *
 * `--with-stores` resolves PostgreSQL and Redis first, in a child (`with-stores.js --print-env`:
 * migrations, .env.local) that exits once done — or stays as the keeper of a store it had to start
 * — so this process never loads the config and database modules (~25 MB it would hold for good).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
// The catalog and the source-map hook alone, not @wcs/runtime's index: that loads the logger
// (pino, ~7 MB this process would hold for good); pino-pretty is loaded only on a terminal.
import {
  compiledService,
  ONE_PROCESS,
  SERVICE_PROCESS_ENV,
  SERVICES,
  type ServiceProcessName,
} from '@wcs/runtime/service-catalog';
import { installSourceMaps } from '@wcs/runtime/source-maps';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'with-stores': { type: 'boolean', default: false },
    'one-process': { type: 'boolean', default: false },
  },
});
if (values['one-process'] && positionals.length > 0) {
  console.error('supervisor: --one-process runs every service; name no services with it');
  process.exit(2);
}
const services: ServiceProcessName[] = values['one-process']
  ? [ONE_PROCESS]
  : positionals.length
    ? SERVICES.filter((s) => positionals.includes(s))
    : [...SERVICES];
const children = new Map<ServiceProcessName, ChildProcess>();
const pretty: ((line: string) => string) | undefined = process.stdout.isTTY
  ? (require('@wcs/logger') as typeof import('@wcs/logger')).prettyLogLine
  : undefined;
let childEnv: NodeJS.ProcessEnv = process.env;
let storesKeeper: ChildProcess | undefined;
let stopping = false;

function start(name: ServiceProcessName, restarts = 0): void {
  const { cwd, args } = compiledService(name);
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...SERVICE_PROCESS_ENV, ...childEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.set(name, child);
  const pad = name.padEnd(18);
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    readline
      .createInterface({ input: stream })
      .on('line', (line) => process.stdout.write(`${pad}| ${pretty ? pretty(line) : line}\n`));
  }
  const startedAt = Date.now();
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (stopping) {
      if (children.size === 0) void exit(0);
      return;
    }
    // A service that ran a while gets its restart count reset; a crash loop backs off to 30 s.
    const n = Date.now() - startedAt > 60_000 ? 0 : restarts + 1;
    const delay = Math.min(30_000, 500 * 2 ** n);
    process.stdout.write(`${pad}| exited (code ${code}, signal ${signal}); restarting in ${delay} ms\n`);
    setTimeout(() => !stopping && start(name, n), delay);
  });
}

async function exit(code: number): Promise<never> {
  const keeper = storesKeeper;
  if (keeper && keeper.exitCode === null && keeper.signalCode === null) {
    await new Promise((resolve) => {
      keeper.once('exit', resolve);
      keeper.kill('SIGTERM');
    });
  }
  process.exit(code);
}

/** DATABASE_URL and REDIS_URL from `with-stores --print-env` (see the header). */
function resolveStores(): Promise<NodeJS.ProcessEnv> {
  const compiled = __filename.endsWith('.js');
  const script = path.join(__dirname, compiled ? 'with-stores.js' : 'with-stores.ts');
  const child = spawn(process.execPath, [...process.execArgv, script, '--write-env-file', '--print-env'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  storesKeeper = child;
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      lines.close();
      resolve(JSON.parse(line) as NodeJS.ProcessEnv);
    });
    child.once('exit', (code) => reject(new Error(`stores could not be prepared (exit ${code})`)));
  });
}

function stopAll(signal: NodeJS.Signals): void {
  if (stopping) {
    for (const c of children.values()) c.kill('SIGKILL');
    void exit(1);
    return;
  }
  stopping = true;
  process.stdout.write(`supervisor        | ${signal}: stopping ${children.size} services\n`);
  if (children.size === 0) void exit(0);
  for (const c of children.values()) c.kill('SIGTERM');
  setTimeout(() => {
    for (const c of children.values()) c.kill('SIGKILL');
    void exit(1);
  }, 25_000).unref();
}

async function main(): Promise<void> {
  installSourceMaps();
  process.on('SIGINT', () => stopAll('SIGINT'));
  process.on('SIGTERM', () => stopAll('SIGTERM'));
  if (values['with-stores']) childEnv = { ...process.env, ...(await resolveStores()) };
  if (stopping) return void exit(0);
  for (const s of services) start(s);
}

main().catch(async (err: unknown) => {
  console.error(`supervisor: ${err instanceof Error ? err.message : String(err)}`);
  await exit(1);
});
