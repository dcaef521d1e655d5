// undici as the one-process bundle loads it. Its index (every dispatcher, fetch, WebSocket,
// EventSource, the caches, the mocks) ran whole at start, while the services use the Agent,
// buildConnector and `dispatcher.request` (outside the bundle, the rest of the index cost about
// twice what those did: ~50 ms). The bundle's `require('undici')` gets this entry instead: those
// at once, anything else (an LLM provider's `fetch`) from undici's own index when first asked for.
import { createRequire } from 'node:module';
import path from 'node:path';

const NAMESPACE = 'lazy-undici';

// Required from undici's own directory (esbuild's resolveDir), so its modules are the bundle's.
const ENTRY = `'use strict';
const Dispatcher = require('./lib/dispatcher/dispatcher');
// What undici's index does on load that these need: dispatcher.request() and the like.
Object.assign(Dispatcher.prototype, require('./lib/api'));
const now = { Agent: require('./lib/dispatcher/agent'), buildConnector: require('./lib/core/connect') };
let index;
const full = () => (index ??= require('./index.js'));
module.exports = new Proxy(now, {
  get: (target, key) => (key in target ? target[key] : full()[key]),
  has: (target, key) => key in target || key in full(),
});
`;

/**
 * esbuild plugin: `undici` (the bare name) resolves to the entry above, beside undici's index
 * (named relative to `outDir`, as esbuild names the bundle's other modules).
 */
export function lazyUndici(outDir) {
  return {
    name: 'lazy-undici',
    setup(b) {
      b.onResolve({ filter: /^undici$/ }, (args) => {
        if (!args.importer) return undefined;
        const index = createRequire(args.importer).resolve('undici');
        return { path: path.relative(outDir, index), namespace: NAMESPACE };
      });
      b.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: ENTRY,
        loader: 'js',
        resolveDir: path.dirname(path.resolve(outDir, args.path)),
      }));
    },
  };
}
