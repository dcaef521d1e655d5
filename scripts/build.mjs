// `pnpm build`: compiles every workspace package and service whose package.json `main` points into
// dist/ (and scripts/*.ts, the run command's supervisor) to CommonJS, one .js + .js.map per source
// file, so production runs `node dist/main.js` (see SERVICE_NODE_FLAGS) with no tsx/esbuild process.
//
// One tool, one config: esbuild transpiles (the repository is `isolatedModules`, so per-file
// transpilation is exact); `pnpm typecheck` (tsc) checks the types. tsc --build would need a
// composite tsconfig per package and ~10× the time. The published clients (client-node,
// mcp-server) keep their own tsc builds because they ship type declarations.
//
// A package opts in with `"build": "node ../../scripts/build.mjs ."` in its package.json.
// Incremental: a package is rebuilt only when a file under its src/ (or its package.json, or this
// script) is newer than its dist/.build-stamp. `--force` rebuilds everything.
//
//   node scripts/build.mjs [--force] [--quiet] [dir …]   (default: every compiled package)
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleEntry } from './bundle-entry.mjs';
import { bundleThread } from './bundle-thread.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The flags services run with (packages/runtime, compiled above before any bundle is made). */
const serviceNodeFlags = () =>
  createRequire(import.meta.url)(path.join(ROOT, 'packages/runtime/dist/service-catalog.js'))
    .SERVICE_NODE_FLAGS;
const SELF = fileURLToPath(import.meta.url);
const STAMP = '.build-stamp';
// Files a build leaves alone in dist/: the dashboard's page is Vite's output in dist/web.
const KEEP_IN_DIST = new Set(['web']);

const args = process.argv.slice(2);
const force = args.includes('--force');
const quiet = args.includes('--quiet');
const only = args.filter((a) => !a.startsWith('--')).map((d) => path.resolve(d));

/** { dir, srcDir, outDir } of every unit this script compiles. */
function units() {
  const found = [];
  for (const group of ['packages', 'services']) {
    for (const name of readdirSync(path.join(ROOT, group))) {
      const dir = path.join(ROOT, group, name);
      const manifest = path.join(dir, 'package.json');
      if (!existsSync(manifest)) continue;
      // A unit opts in by building with this script (the published clients build with tsc).
      const buildScript = JSON.parse(readFileSync(manifest, 'utf8')).scripts?.build ?? '';
      if (!buildScript.includes('../../scripts/build.mjs')) continue;
      const manifestJson = JSON.parse(readFileSync(manifest, 'utf8'));
      found.push({
        dir,
        srcDir: path.join(dir, 'src'),
        outDir: path.join(dir, 'dist'),
        // `"bundle": "src/main.ts"`: that entry's dist file is one bundle of everything it loads.
        ...(manifestJson.bundle ? { bundle: path.join(dir, manifestJson.bundle) } : {}),
        // `"threadBundle": "src/….entry.ts"`: the content threads' code as one file (bundle-thread.mjs).
        ...(manifestJson.threadBundle ? { threadBundle: path.join(dir, manifestJson.threadBundle) } : {}),
      });
    }
  }
  // The run command's supervisor and store resolution (scripts/*.ts) run compiled too.
  found.push({
    dir: path.join(ROOT, 'scripts'),
    srcDir: path.join(ROOT, 'scripts'),
    outDir: path.join(ROOT, 'scripts', 'dist'),
  });
  return only.length ? found.filter((u) => only.includes(u.dir)) : found;
}

/** Source files of a unit: .ts (not tests) to compile, .cjs/.json to copy as they are. */
function sources(srcDir) {
  const ts = [];
  const copy = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'dist' && entry.name !== 'node_modules') walk(file);
      } else if (/\.test\.ts$|\.d\.ts$/.test(entry.name)) {
        // tests run under jest from the sources
      } else if (entry.name.endsWith('.ts')) ts.push(file);
      else if (/\.(cjs|json)$/.test(entry.name)) copy.push(file);
    }
  };
  walk(srcDir);
  return { ts, copy };
}

function newestMtime(files) {
  return files.reduce((max, f) => Math.max(max, statSync(f).mtimeMs), 0);
}

function clean(outDir) {
  if (!existsSync(outDir)) return;
  for (const entry of readdirSync(outDir)) {
    if (!KEEP_IN_DIST.has(entry)) rmSync(path.join(outDir, entry), { recursive: true, force: true });
  }
}

async function buildUnit({ dir, srcDir, outDir }) {
  const { ts, copy } = sources(srcDir);
  const stamp = path.join(outDir, STAMP);
  const inputs = [
    ...ts,
    ...copy,
    SELF,
    ...(existsSync(path.join(dir, 'package.json')) ? [path.join(dir, 'package.json')] : []),
  ];
  if (!force && existsSync(stamp) && statSync(stamp).mtimeMs >= newestMtime(inputs)) return false;
  clean(outDir);
  await build({
    entryPoints: ts,
    outdir: outDir,
    outbase: srcDir,
    bundle: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    // Stack traces need the mappings, not the sources (smaller maps, less memory when loaded).
    sourcesContent: false,
    // esbuild's CommonJS exports are getters (live bindings), each a keyed read shared by every
    // export of a file: a hot helper (isElement) called from another file paid ~3.5% of the
    // content pipeline in them. Once a module has loaded, its exports become plain values; a
    // module that required it during a cycle keeps the getters, which stay correct. (No export is
    // reassigned after load: the repository exports no `let`.)
    footer: {
      js: 'if (module.exports.__esModule) module.exports = Object.defineProperty({ ...module.exports }, "__esModule", { value: true });',
    },
    logLevel: 'warning',
  });
  for (const file of copy) {
    const to = path.join(outDir, path.relative(srcDir, file));
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(file, to);
  }
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  return true;
}

/** The bundle's own build scripts (scripts/bundle-*.mjs) changed since `stamp` was written. */
function bundleScriptsNewerThan(stamp) {
  const made = statSync(stamp).mtimeMs;
  const dir = path.join(ROOT, 'scripts');
  return readdirSync(dir).some(
    (f) => /^bundle-.*\.mjs$/.test(f) && statSync(path.join(dir, f)).mtimeMs > made,
  );
}

const started = Date.now();
const built = [];
const all = units();
for (const unit of all) {
  if (await buildUnit(unit)) built.push(path.relative(ROOT, unit.dir));
}
// Bundles last, from the other units' fresh output; remade whenever any unit was rebuilt.
for (const unit of all) {
  if (!unit.threadBundle) continue;
  const stamp = path.join(unit.outDir, '.thread-bundle-stamp');
  if (!force && built.length === 0 && existsSync(stamp) && !bundleScriptsNewerThan(stamp)) continue;
  await bundleThread({
    entry: unit.threadBundle,
    outfile: path.join(unit.outDir, 'content-thread.bundle.js'),
    cacheWriter: path.join(unit.outDir, 'content-thread-cache.js'),
    nodeFlags: serviceNodeFlags(),
  });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  if (!built.includes(path.relative(ROOT, unit.dir)))
    built.push(`${path.relative(ROOT, unit.dir)} (thread bundle)`);
}
for (const unit of all) {
  if (!unit.bundle) continue;
  const out = path.join(unit.outDir, `${path.basename(unit.bundle, '.ts')}.js`);
  const stamp = path.join(unit.outDir, '.bundle-stamp');
  if (!force && built.length === 0 && existsSync(stamp) && !bundleScriptsNewerThan(stamp)) continue;
  await bundleEntry({ entry: unit.bundle, outfile: out, nodeFlags: serviceNodeFlags() });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  if (!built.includes(path.relative(ROOT, unit.dir))) built.push(`${path.relative(ROOT, unit.dir)} (bundle)`);
}
if (!quiet) {
  const what = built.length ? built.join(', ') : 'nothing (up to date)';
  console.error(`[build] ${what} in ${Date.now() - started} ms`);
}
