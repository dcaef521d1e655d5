// The content threads' code as one file (`"threadBundle"` in a package's package.json: @wcs/scraper),
// with V8's code cache of it. A content thread that required the compiled files resolved, read and
// compiled ~200 modules before its first page (~110 ms of CPU, at every start of a thread: the pool
// ends its threads when idle); from the bundle and its cache, ~30 ms. Loaded by content-worker.cjs.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';
import { bundleOptions, keepModulePaths } from './bundle-entry.mjs';
import { sectionSourceMapFile } from './bundle-source-map.mjs';

/**
 * Bundles `entry` into `outfile`, then writes the code cache beside it from a thread of a real
 * content pool (`cacheWriter`'s writeContentThreadCache) in a process started with `nodeFlags`,
 * the services' own: V8 rejects a cache made under other flags.
 */
export async function bundleThread({ entry, outfile, cacheWriter, nodeFlags }) {
  const outDir = path.dirname(outfile);
  await build({ ...bundleOptions(entry, outfile), plugins: [keepModulePaths(outDir)] });
  sectionSourceMapFile(`${outfile}.map`);
  execFileSync(
    process.execPath,
    [
      ...nodeFlags,
      '-e',
      `require(${JSON.stringify(cacheWriter)}).writeContentThreadCache().catch((e) => { console.error(e); process.exitCode = 1; })`,
    ],
    { cwd: outDir, stdio: 'inherit' },
  );
}
