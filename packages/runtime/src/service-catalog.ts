import { existsSync } from 'node:fs';
import path from 'node:path';

/** Every service of the system: one process each (`services/<name>`), as the supervisor runs them. */
export const SERVICES = [
  'gateway',
  'scrape-worker',
  'crawl-worker',
  'extract-worker',
  'monitor-scheduler',
  'webhook-dispatcher',
] as const;
export type ServiceName = (typeof SERVICES)[number];

/**
 * Every service of SERVICES in one Node process (`services/one-process`, the run command's
 * `--one-process`): for small machines. Not a deployment of its own (infra/k8s runs SERVICES).
 */
export const ONE_PROCESS = 'one-process';
/** A process the supervisor can run: one service, or all of them in one process. */
export type ServiceProcessName = ServiceName | typeof ONE_PROCESS;
/** Every process the supervisor can run: each service, and the one-process mode. */
export const SERVICE_PROCESSES: readonly ServiceProcessName[] = [...SERVICES, ONE_PROCESS];

/**
 * Node flags of every service process (the supervisor, the Dockerfiles and infra/k8s use these):
 * a young generation capped at 4 MB semi-spaces instead of 16, because startup's burst of module
 * loading grows it to the maximum and V8 never gives it back (~25–40 MB per idle process), and two
 * V8 helper threads instead of four (the pods and this machine have two cores; ~1.5 MB each).
 * Measured with `pnpm bench:footprint`. And an interrupt budget ~4.4× V8's (67,584): a function is
 * optimised after more of its own work, so TurboFan compiles fewer functions that ran a few times
 * only. Each content thread is an isolate of its own that compiles the whole pipeline for itself
 * (5–23 ms of helper-thread CPU per large function): on the first real pages after a start that
 * was ~6 ms of CPU a page on the helper threads; with the budget ~3.5 (bench:scrape "cold", runtime
 * threads), and no slower once warm. Source maps: see source-maps.ts.
 * `--liftoff-only` and `--expose-gc` are set at run time too (@wcs/db's createDb, collectIdleGarbage,
 * which say why), for processes started without them; here from the start, so that the V8 flags
 * a content thread starts under do not depend on when those ran: V8 accepts the threads' code cache
 * (scripts/bundle-thread.mjs) only under the flags it was written with, and every flag counts.
 */
export const SERVICE_NODE_FLAGS = [
  '--max-semi-space-size=4',
  '--v8-pool-size=2',
  '--interrupt-budget=300000',
  '--liftoff-only',
  '--expose-gc',
] as const;

/** Environment of every service process: two glibc malloc arenas, not one per thread (~2–3 MB). */
export const SERVICE_PROCESS_ENV = { MALLOC_ARENA_MAX: '2' } as const;

// From packages/runtime/src and packages/runtime/dist alike.
const ROOT = path.resolve(__dirname, '..', '..', '..');

/**
 * How a service runs in production: `node <SERVICE_NODE_FLAGS> dist/main.js` in its directory,
 * from the output of `pnpm build`.
 * Throws when the service has not been built, instead of a child that dies with MODULE_NOT_FOUND.
 */
export function compiledService(name: ServiceProcessName): { cwd: string; args: string[] } {
  const cwd = path.join(ROOT, 'services', name);
  if (!existsSync(path.join(cwd, 'dist', 'main.js'))) {
    throw new Error(`services/${name}/dist/main.js is missing: run \`pnpm build\` first`);
  }
  return { cwd, args: [...SERVICE_NODE_FLAGS, 'dist/main.js'] };
}
