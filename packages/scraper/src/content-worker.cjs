'use strict';
/**
 * Entry of a content thread (piscina). Loads the compiled content.task.js when there is one, else
 * the .ts source through tsx's require hook: the same file works under tsx (services today), jest
 * (whose transform does not reach worker threads) and a compiled build.
 */
const { existsSync, writeFileSync } = require('node:fs');
const path = require('node:path');

// The thread's name in ps, top and perf, where Node names every thread `node`: an operator (and
// bench/cpu-time.ts) can tell the content threads from the runtime's own. Linux only; elsewhere,
// or when /proc is not there, the thread keeps its name.
try {
  writeFileSync('/proc/thread-self/comm', 'wcs-content');
} catch {}

const loaded = new Map();
let tsx = false;
function load(name) {
  if (loaded.has(name)) return loaded.get(name);
  const js = path.join(__dirname, `${name}.js`);
  let mod;
  if (existsSync(js)) mod = require(js);
  else {
    if (!tsx) require('tsx/cjs/api').register();
    tsx = true;
    mod = require(path.join(__dirname, `${name}.ts`));
  }
  loaded.set(name, mod);
  return mod;
}

module.exports = function runInThread(input) {
  // A warm-up (content-warm-up.ts): one of the built-in pages.
  if (typeof input.warmUp === 'number') return load('content-warm-up').warmUp(input.warmUp);
  const task = load('content.task');
  // The page's budget starts now: loading the code (a cold thread) was not this page's work.
  if (input.begunAt) Atomics.store(input.begunAt, 0, BigInt(Date.now()));
  return task.runContentTask(input);
};
