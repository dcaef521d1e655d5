'use strict';
/**
 * Entry of a content thread (piscina). Loads, in this order of preference:
 * - the build's bundle of the thread's code (`content-thread.bundle.js` beside this file, with V8's
 *   code cache of it): one file instead of ~200 modules resolved, read and compiled, and the
 *   functions a conversion runs already compiled — a new thread (at start, and after the pool
 *   idled out) was ~110 ms of CPU before its first page, ~30 ms so;
 * - the compiled files (`content.task.js`), when there is no bundle or the pool asked for them;
 * - the .ts sources through tsx's require hook (jest, whose transform does not reach worker threads).
 * Plain CommonJS: it runs before anything else loads.
 */
const { existsSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

// The thread's name in ps, top and perf, where Node names every thread `node`: an operator (and
// bench/cpu-time.ts) can tell the content threads from the runtime's own. Linux only; elsewhere,
// or when /proc is not there, the thread keeps its name.
try {
  writeFileSync('/proc/thread-self/comm', 'wcs-content');
} catch {}

const BUNDLE = path.join(__dirname, 'content-thread.bundle.js');
const CODE_CACHE = `${BUNDLE}.v8cache`;

/** What this thread loaded: `{ from: 'bundle' | 'files' | 'source', codeCache: 'accepted' | 'rejected' | 'none' }`. */
let loadedFrom;
let code;

/**
 * The bundle run as a module of its own, with `cachedData` when given (V8 checks it and may reject
 * it): as the services' loader runs theirs (scripts/bundle-entry.mjs, LOADER).
 */
function runBundle(cachedData) {
  const script = new vm.Script(Module.wrap(readFileSync(BUNDLE, 'utf8')), { filename: BUNDLE, cachedData });
  const bundle = new Module(BUNDLE, module);
  bundle.filename = BUNDLE;
  bundle.paths = Module._nodeModulePaths(__dirname);
  script
    .runInThisContext()
    .call(bundle.exports, bundle.exports, Module.createRequire(BUNDLE), bundle, BUNDLE, __dirname);
  return { exports: bundle.exports, script };
}

/** A cache older than the bundle is of another build (V8 itself compares only the source's length). */
function freshCache() {
  try {
    return statSync(CODE_CACHE).mtimeMs >= statSync(BUNDLE).mtimeMs ? readFileSync(CODE_CACHE) : undefined;
  } catch {
    return undefined;
  }
}

let tsx = false;
function loadFile(name) {
  const js = path.join(__dirname, `${name}.js`);
  if (existsSync(js)) return require(js);
  if (!tsx) require('tsx/cjs/api').register();
  tsx = true;
  return require(path.join(__dirname, `${name}.ts`));
}

function load() {
  if (code) return code;
  // The pool's choice (ContentPoolOptions.threadBundle), as piscina hands it over.
  if (require('piscina').workerData?.bundle !== false && existsSync(BUNDLE)) {
    const cachedData = freshCache();
    const { exports, script } = runBundle(cachedData);
    code = exports;
    loadedFrom = {
      from: 'bundle',
      codeCache: cachedData ? (script.cachedDataRejected ? 'rejected' : 'accepted') : 'none',
    };
    return code;
  }
  const fromFiles = existsSync(path.join(__dirname, 'content.task.js'));
  code = { ...loadFile('content.task'), ...loadFile('content-warm-up') };
  loadedFrom = { from: fromFiles ? 'files' : 'source', codeCache: 'none' };
  return code;
}

/**
 * The build's code cache (content-thread-cache.ts): the bundle compiled afresh, every built-in
 * warm-up page converted once (so the functions a page runs are in the cache, not only those run
 * while the modules load), then V8's cache of it written beside the bundle. Only in a thread
 * started as the services start theirs (their node flags, the pool's own): V8 rejects a cache made
 * under other flags. Answers the cache's size in bytes.
 */
function writeCodeCache(pages) {
  const { exports, script } = runBundle(undefined);
  for (let i = 0; i < pages; i++) exports.warmUp(i);
  const bytes = script.createCachedData();
  writeFileSync(CODE_CACHE, bytes);
  return bytes.length;
}

module.exports = function runInThread(input) {
  if (input.writeCodeCache) return writeCodeCache(input.writeCodeCache.pages);
  const task = load();
  if (input.threadInfo) return loadedFrom;
  // A warm-up (content-warm-up.ts): one of the built-in pages.
  if (typeof input.warmUp === 'number') return task.warmUp(input.warmUp);
  // The page's budget starts now: loading the code (a cold thread) was not this page's work.
  if (input.begunAt) Atomics.store(input.begunAt, 0, BigInt(Date.now()));
  return task.runContentTask(input);
};
