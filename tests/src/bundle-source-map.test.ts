/**
 * A bundle's source map is written in sections (scripts/bundle-source-map.mjs): formatting the
 * first stack through a service parsed its whole ~4 MB map at once (1–3.5 s of the main thread,
 * every job lock of the process lost meanwhile); in sections only the frames' own are parsed. The
 * sectioned map must say what the plain one said, position for position, and stacks must still
 * reach the TypeScript. Needs the build (scripts/test.sh runs it first).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiledService, SERVICE_PROCESSES } from '@wcs/runtime';

const ROOT = path.resolve(__dirname, '..', '..');
const SECTIONS = path.join(ROOT, 'scripts', 'bundle-source-map.mjs');
const RUNTIME_DIST = path.join(ROOT, 'packages', 'runtime', 'dist', 'source-maps.js');
/** The build's esbuild (the scripts' own dependency, at the root). */
const ESBUILD = pathToFileURL(createRequire(path.join(ROOT, 'package.json')).resolve('esbuild')).href;

function node(args: string[], cwd: string): string {
  const run = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr || run.stdout);
  return run.stdout;
}

/** Two TypeScript files, one calling the other, the throw on a known line of each. */
const SOURCES: Record<string, string> = {
  'b.ts': [
    'export function inner(n: number): number {',
    '  const twice = n * 2;',
    "  if (twice > 10) throw new Error('inner failed');",
    '  return twice;',
    '}',
  ].join('\n'),
  'main.ts': [
    "import { inner } from './b';",
    'export function outer(list: number[]): number {',
    '  let sum = 0;',
    '  for (const n of list) sum += inner(n);',
    '  return sum;',
    '}',
    'outer([1, 2, 3, 9]);',
  ].join('\n'),
};

describe('a bundle whose map is in sections', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'wcs-sections-'));
    for (const [name, text] of Object.entries(SOURCES)) writeFileSync(path.join(dir, name), text);
    // Bundled as the services are (minified whitespace, a linked map), then cut into sections of 3
    // mappings: every frame falls in a section of its own.
    const script = `
      import { build } from ${JSON.stringify(ESBUILD)};
      import { readFileSync, writeFileSync } from 'node:fs';
      import { sectionSourceMap } from ${JSON.stringify(pathToFileURL(SECTIONS).href)};
      await build({ entryPoints: ['main.ts'], outfile: 'app.bundle.js', bundle: true, platform: 'node',
        format: 'cjs', sourcemap: 'linked', sourcesContent: false, minifyWhitespace: true, logLevel: 'error' });
      const plain = readFileSync('app.bundle.js.map', 'utf8');
      writeFileSync('plain.map', plain);
      writeFileSync('app.bundle.js.map', JSON.stringify(sectionSourceMap(JSON.parse(plain), 3)));`;
    node(['--input-type=module', '-e', script], dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('maps every generated position as the plain map does', () => {
    // source-map (source-map-support's own parser), over every mapped position and the gaps between.
    const script = `
      const { createRequire } = require('node:module');
      const req = createRequire(require.resolve('source-map-support', { paths: [${JSON.stringify(path.dirname(RUNTIME_DIST))}] }));
      const { SourceMapConsumer } = req('source-map');
      const fs = require('node:fs');
      const sectioned = JSON.parse(fs.readFileSync('app.bundle.js.map', 'utf8'));
      const plain = new SourceMapConsumer(JSON.parse(fs.readFileSync('plain.map', 'utf8')));
      const indexed = new SourceMapConsumer(sectioned);
      const lines = fs.readFileSync('app.bundle.js', 'utf8').split('\\n');
      let checked = 0, differ = 0, mapped = 0;
      lines.forEach((text, i) => {
        for (let column = 0; column <= text.length; column++) {
          const a = plain.originalPositionFor({ line: i + 1, column });
          const b = indexed.originalPositionFor({ line: i + 1, column });
          checked++;
          if (a.source !== null) mapped++;
          if (a.source !== b.source || a.line !== b.line || a.column !== b.column || a.name !== b.name) differ++;
        }
      });
      process.stdout.write(JSON.stringify({ sections: sectioned.sections.length, checked, mapped, differ }));`;
    const r = JSON.parse(node(['-e', script], dir)) as Record<string, number>;
    expect(r.sections).toBeGreaterThan(10);
    expect(r.mapped).toBeGreaterThan(50);
    expect(r.differ).toBe(0);
  });

  it('a stack through it points at the TypeScript lines', () => {
    const script = `
      require(${JSON.stringify(RUNTIME_DIST)}).installSourceMaps();
      try { require('./app.bundle.js'); } catch (err) { process.stdout.write(err.stack); }`;
    const stack = node(['-e', script], dir);
    expect(stack).toMatch(/inner failed/);
    expect(stack).toMatch(/b\.ts:3:\d+/);
    expect(stack).toMatch(/main\.ts:4:\d+/);
    expect(stack).toMatch(/main\.ts:7:\d+/);
  });
});

it.each(SERVICE_PROCESSES)('the %s bundle’s map is in sections of at most 1,000 mappings', (service) => {
  const { cwd } = compiledService(service);
  const map = JSON.parse(readFileSync(path.join(cwd, 'dist', 'main.bundle.js.map'), 'utf8')) as {
    sections?: Array<{ map: { mappings: string } }>;
  };
  expect(map.sections?.length).toBeGreaterThan(100);
  const largest = Math.max(
    ...(map.sections ?? []).map((s) => s.map.mappings.split(/[;,]/).filter(Boolean).length),
  );
  expect(largest).toBeLessThanOrEqual(1_000);
});
