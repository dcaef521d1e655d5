/**
 * Every service process loads one esbuild bundle through the loader the build writes as its
 * dist/main.js (scripts/bundle-entry.mjs), which reads the bundle's V8 code cache. V8 rejects a
 * cache quietly (then the start compiles everything, ~0.2 s slower): under the services' node flags
 * the build's cache must be accepted. Needs the build (scripts/test.sh runs it first).
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { compiledService, SERVICE_NODE_FLAGS, SERVICE_PROCESSES } from '@wcs/runtime';

describe.each(SERVICE_PROCESSES)('the %s bundle', (service) => {
  const bundle = path.join(compiledService(service).cwd, 'dist', 'main.bundle.js');
  const cache = `${bundle}.v8cache`;

  /** Compiles the bundle as the loader does (same wrapper and file name) with `cachedData`. */
  function rejectedUnder(flags: readonly string[]): boolean {
    const script = `
      const fs = require('node:fs'), vm = require('node:vm'), Module = require('node:module');
      const s = new vm.Script(Module.wrap(fs.readFileSync(${JSON.stringify(bundle)}, 'latin1')), {
        filename: ${JSON.stringify(bundle)}, cachedData: fs.readFileSync(${JSON.stringify(cache)}) });
      process.stdout.write(String(s.cachedDataRejected));`;
    const run = spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(run.stderr);
    return run.stdout === 'true';
  }

  it('has its code cache written after it, accepted by V8 under the services’ flags', () => {
    expect(statSync(cache).mtimeMs).toBeGreaterThanOrEqual(statSync(bundle).mtimeMs);
    expect(rejectedUnder(SERVICE_NODE_FLAGS)).toBe(false);
    // The check can fail: other V8 flags make V8 reject the same cache.
    expect(rejectedUnder([...SERVICE_NODE_FLAGS, '--liftoff-only'])).toBe(true);
  });
});
