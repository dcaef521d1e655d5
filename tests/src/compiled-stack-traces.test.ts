/**
 * Compiled services report errors at their TypeScript lines: `installSourceMaps()` (runService
 * calls it) maps a stack through dist/*.js.map when it is first formatted. Runs compiled code in a
 * fresh `node`, as production does; needs the build (scripts/test.sh runs it first).
 */
import { spawnSync } from 'node:child_process';
import { compiledService } from '@wcs/runtime';

function stackOfConfigError(mapped: boolean): string {
  const { cwd } = compiledService('gateway');
  const script = `
    ${mapped ? "require('@wcs/runtime').installSourceMaps();" : ''}
    const { loadGatewayEnv } = require('./dist/env.js');
    try { loadGatewayEnv(); } catch (err) { process.stdout.write(err.stack); }`;
  // No DATABASE_URL: loading the gateway's config throws from packages/config.
  const env = { PATH: process.env.PATH ?? '' };
  const run = spawnSync(process.execPath, ['-e', script], { cwd, env, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout;
}

it('a compiled service error points at the TypeScript source line', () => {
  const stack = stackOfConfigError(true);
  expect(stack).toMatch(/DATABASE_URL/);
  expect(stack).toMatch(/packages\/config\/src\/load-env\.ts:\d+:\d+/);
  expect(stack).toMatch(/services\/gateway\/src\/env\.ts:\d+:\d+/);
});

it('without the hook the same stack shows the compiled files (the check above can fail)', () => {
  const stack = stackOfConfigError(false);
  expect(stack).toMatch(/packages\/config\/dist\/load-env\.js:\d+:\d+/);
  expect(stack).not.toMatch(/\.ts:\d+/);
});
