/**
 * What a content thread runs (content-worker.cjs), as one module: the build bundles it with
 * everything it loads into dist/content-thread.bundle.js and writes V8's code cache of it
 * (content-thread-cache.ts), so a new thread reads one file and compiles little.
 */
export { runContentTask } from './content.task';
export { warmUp } from './content-warm-up';
