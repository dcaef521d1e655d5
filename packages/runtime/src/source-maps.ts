import { readFileSync } from 'node:fs';

type PrepareStackTrace = (error: Error, frames: NodeJS.CallSite[]) => unknown;

let installed = false;

/**
 * A service bundle's map lies beside it (scripts/bundle-entry.mjs, in sections: bundle-source-map.mjs).
 * Read directly: source-map-support would read the ~6 MB bundle to find its sourceMappingURL
 * comment, and keep the text of both files for the life of the process. Other files: its own way.
 */
function bundleSourceMap(source: string): { url: string; map: string } | null {
  if (!source.endsWith('.bundle.js')) return null;
  try {
    return { url: `${source}.map`, map: readFileSync(`${source}.map`, 'utf8') };
  } catch {
    return null;
  }
}

/**
 * Stack traces of compiled services point at the TypeScript (the bundle's map, or dist/*.js.map of
 * a package's own files, written by `pnpm build`). Not Node's `--enable-source-maps`: that parses
 * and keeps the map of every module as it loads (4–9 MB of each idle process, measured).
 * source-map-support reads a map only when a stack through its file is formatted, but loading the
 * library itself costs ~6.6 MB, so it is required when the first stack is formatted: an idle
 * service never pays for it. Under tsx or jest the sources run as they are and no map is found.
 */
export function installSourceMaps(): void {
  if (installed) return;
  installed = true;
  const before = Error.prepareStackTrace as PrepareStackTrace | undefined;
  const firstStack: PrepareStackTrace = (error, frames) => {
    // Hand the hook back before loading, so nothing the library does while loading recurses here.
    Error.prepareStackTrace = before as PrepareStackTrace; // undefined: V8's default format
    const { install } = require('source-map-support') as typeof import('source-map-support');
    install({ environment: 'node', handleUncaughtExceptions: false, retrieveSourceMap: bundleSourceMap });
    const mapped = Error.prepareStackTrace as PrepareStackTrace | undefined;
    return mapped ? mapped(error, frames) : `${error}\n${frames.map((f) => `    at ${f}`).join('\n')}`;
  };
  Error.prepareStackTrace = firstStack;
}
