/**
 * The run command as it was before the compiled build (commit 6c2e0e3's scripts/supervise.ts):
 * one `node --import tsx src/main.ts` per service, each compiling its TypeScript on start with its
 * own esbuild child. bench/footprint.bench.ts starts it under `pnpm exec tsx` (as `pnpm start`
 * did) to print the numbers the compiled stack is compared with. Not used by the service.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { SERVICES } from '@wcs/runtime';

const ROOT = path.resolve(__dirname, '..');
const children: ChildProcess[] = SERVICES.map((name) =>
  spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(ROOT, 'services', name),
    env: process.env,
    stdio: ['ignore', 'ignore', 'inherit'],
  }),
);

function stop(): void {
  let left = children.length;
  for (const c of children) {
    c.once('exit', () => --left === 0 && process.exit(0));
    c.kill('SIGTERM');
  }
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
