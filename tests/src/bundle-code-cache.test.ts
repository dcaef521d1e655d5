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
    expect(rejectedUnder([...SERVICE_NODE_FLAGS, '--no-lazy-feedback-allocation'])).toBe(true);
  });
});

describe('the content threads’ bundle', () => {
  const scraper = path.resolve(__dirname, '../../packages/scraper');
  const dbDist = path.resolve(__dirname, '../../packages/db/dist/db.js');

  /**
   * In a fresh process under `flags`, after what a service does before its threads start (its
   * database client sets a V8 flag at run time; the idle collections' flag may come before or
   * after): what a one-thread pool's thread loaded, and its markdown of a page.
   */
  function threadUnder(flags: readonly string[], threadBundle: boolean): { code: unknown; markdown: string } {
    const script = `
      require(${JSON.stringify(dbDist)}).createDb('postgresql://nobody@127.0.0.1:1/none');
      const { ContentPool } = require('./dist/content-pool.js');
      const body = '<html><head><title>T</title></head><body><main><h1>Heading</h1><p>' +
        'Words of a paragraph that is long enough to be the main content of this page. '.repeat(8) +
        '<a href="/next">next</a></p></main></body></html>';
      (async () => {
        const pool = new ContentPool({ threads: 1, idleTimeoutMs: 1000, taskTimeoutMs: 30000, heapMb: 256, threadBundle: ${threadBundle} });
        const page = await pool.run({ body, finalUrl: 'https://a.example/p', sourceUrl: 'https://a.example/p', statusCode: 200,
          contentType: 'text/html', headers: {}, format: 'markdown', formats: ['markdown'], onlyMainContent: true });
        const code = await pool.threadCode();
        await pool.close();
        process.stdout.write(JSON.stringify({ code, markdown: page.data.markdown }));
        process.exit(0);
      })();`;
    const run = spawnSync(process.execPath, [...flags, '-e', script], { cwd: scraper, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(run.stderr);
    return JSON.parse(run.stdout) as { code: unknown; markdown: string };
  }

  it('is what a thread loads, with its code cache accepted under the services’ flags', () => {
    const bundled = threadUnder(SERVICE_NODE_FLAGS, true);
    expect(bundled.code).toEqual({ from: 'bundle', codeCache: 'accepted' });
    // The check can fail: under other flags V8 rejects the cache (and the thread compiles the bundle).
    expect(threadUnder([], true).code).toEqual({ from: 'bundle', codeCache: 'rejected' });
    // The same conversion as the compiled files give.
    const files = threadUnder(SERVICE_NODE_FLAGS, false);
    expect(files.code).toEqual({ from: 'files', codeCache: 'none' });
    expect(bundled.markdown).toContain('# Heading');
    expect(bundled.markdown).toBe(files.markdown);
  });
});
