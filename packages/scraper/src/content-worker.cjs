'use strict';
/**
 * Entry of a content thread (piscina). Loads the compiled content.task.js when there is one, else
 * the .ts source through tsx's require hook: the same file works under tsx (services today), jest
 * (whose transform does not reach worker threads) and a compiled build.
 */
const { existsSync } = require('node:fs');
const path = require('node:path');

let task;
function load() {
  if (task) return task;
  const js = path.join(__dirname, 'content.task.js');
  if (existsSync(js)) task = require(js);
  else {
    require('tsx/cjs/api').register();
    task = require(path.join(__dirname, 'content.task.ts'));
  }
  return task;
}

module.exports = function runInThread(input) {
  const task = load();
  // The page's budget starts now: loading the code (a cold thread) was not this page's work.
  if (input.begunAt) Atomics.store(input.begunAt, 0, BigInt(Date.now()));
  return task.runContentTask(input);
};
