/**
 * Footprint guards: heavy libraries stay out of a service process until it needs them
 * (`pnpm bench:footprint` shows what each costs). Each service's compiled index is loaded in a
 * fresh `node` (what `node dist/main.js` loads before it starts), and its module cache is checked.
 * Needs the build (scripts/test.sh runs it first).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compiledService, SERVICE_PROCESSES, type ServiceProcessName } from '@wcs/runtime';

/** Libraries no service may load at start, with what each costs and who loads it later. */
const LAZY = [
  'playwright-core', // ~45 MB: with the first browser launch (renderer/browser-pool.ts)
  '@anthropic-ai/sdk', // ~8 MB: when an extract provider is made (llm/anthropic.provider.ts)
  'node-llama-cpp', // ~70 MB with its binary: on the embedded model's first call (llm/local-llama.provider.ts)
  'source-map-support', // ~6.6 MB: with the first formatted stack (runtime/source-maps.ts)
  'pino-pretty', // only on a terminal (logger/pretty-log.ts)
  'mammoth', // with the first DOCX, in a content thread (documents/docx.converter.ts)
  'jszip',
  'yauzl', // with the first DOCX, in a content thread (documents/bounded-zip.ts)
  '@bull-board/api', // ~3 MB: on the first admin request (gateway/routes/admin.routes.ts)
];

function loadedPackages(service: ServiceProcessName): string[] {
  const { cwd } = compiledService(service);
  const script = `
    require('./dist/index.js');
    require('@wcs/runtime').installSourceMaps();
    const names = new Set();
    for (const file of Object.keys(require.cache)) {
      const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\/(?!.*node_modules)/.exec(file);
      if (m) names.add(m[1]);
    }
    process.stdout.write(JSON.stringify([...names]));`;
  const run = spawnSync(process.execPath, ['-e', script], { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${service}: ${run.stderr}`);
  return JSON.parse(run.stdout) as string[];
}

// The one-process mode too: every service's modules in one process.
describe.each(SERVICE_PROCESSES)('%s at start', (service) => {
  it('loads none of the libraries it only needs later', () => {
    const loaded = loadedPackages(service);
    expect(loaded.length).toBeGreaterThan(5); // the probe really saw the service's modules
    expect(LAZY.filter((name) => loaded.includes(name))).toEqual([]);
  });
});

// Every service process runs one esbuild bundle (scripts/bundle-entry.mjs): a library bundled into
// it would be read and held from the start even if nothing runs it.
it.each(SERVICE_PROCESSES)(
  'the %s bundle holds none of them: they load from their own files when needed',
  (service) => {
    const { cwd } = compiledService(service);
    const inputs = JSON.parse(
      readFileSync(path.join(cwd, 'dist', 'main.bundle.js.inputs.json'), 'utf8'),
    ) as string[];
    const packageOf = (file: string) =>
      /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules)/.exec(file)?.[1];
    const bundled = new Set(inputs.map(packageOf));
    expect(bundled.has('zod')).toBe(true); // the list really is the bundle's
    expect(LAZY.filter((name) => bundled.has(name))).toEqual([]);
  },
);
