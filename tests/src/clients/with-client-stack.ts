/**
 * Runs a command against a running service: starts the client stack, then runs the command with
 * SERVICE_BASE_URL, SERVICE_API_KEY and WCS_EXAMPLE_SITE set, and exits with its status. For
 * working on a client by hand, inside the stores wrapper:
 *
 *   pnpm exec tsx scripts/with-stores.ts --db-name wcs_test -- \
 *     pnpm exec tsx tests/src/clients/with-client-stack.ts -- /usr/bin/python3 -m pytest packages/client-python/tests
 */
import { spawn } from 'node:child_process';
import { startClientStack } from './client-stack';

async function main(): Promise<number> {
  const sep = process.argv.indexOf('--');
  const cmd = sep >= 0 ? process.argv.slice(sep + 1) : [];
  if (cmd.length === 0) {
    console.error('usage: with-client-stack.ts -- <command> [args…]');
    return 2;
  }
  const stack = await startClientStack({ browser: true }); // screenshots and actions need Chromium
  console.error(`[client-stack] service at ${stack.baseUrl}, fixture site at ${stack.site.url}`);
  try {
    return await new Promise<number>((resolve) => {
      const child = spawn(cmd[0]!, cmd.slice(1), {
        stdio: 'inherit',
        env: { ...process.env, ...stack.clientEnv },
      });
      child.on('error', (err) => {
        console.error(`[client-stack] ${err.message}`);
        resolve(127);
      });
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    });
  } finally {
    await stack.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
