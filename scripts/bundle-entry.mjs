// One file for a service whose start time matters (services/one-process: `"bundle"` in its
// package.json): Node resolving, statting and reading ~1,300 module files was about half of its
// start. esbuild bundles the entry with what it loads, from the packages' compiled dist/.
//
// A bundled module keeps its own place on disk: `__dirname`, `__filename` and `require.resolve`
// are rewritten to the file it came from (the content thread's entry, the dashboard's page,
// pdf.js's fonts are found beside their package as before), and the packages left out (native
// addons, those that start threads or processes from files of their own) are required by their
// real path, so pnpm's strict node_modules does not need them declared here.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * Loaded from their own files: native addons, packages that run files of their own, and the
 * libraries a service loads only when it needs them (tests/src/lazy-modules.test.ts): bundled, their
 * source would be read and held from the start.
 */
const EXTERNAL = new Set([
  'msgpackr-extract',
  'pg-native',
  'piscina',
  'pino',
  'thread-stream',
  'tesseract.js',
  'pdfjs-dist',
  '@bull-board/ui',
  // Loaded later, as in every service (lazy-modules.test.ts):
  'playwright-core',
  '@anthropic-ai/sdk',
  'source-map-support',
  'pino-pretty',
  'mammoth',
  'jszip',
  'yauzl',
  '@bull-board/api',
  '@bull-board/express',
]);

const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

function keepModulePaths(outDir) {
  return {
    name: 'keep-module-paths',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:') || !EXTERNAL.has(packageOf(args.path)) || !args.importer)
          return undefined;
        let file;
        try {
          file = createRequire(args.importer).resolve(args.path);
        } catch {
          // An optional package that is not installed (pg-native): its require throws as before.
          return { path: args.path, external: true };
        }
        return { path: `./${path.relative(outDir, file)}`, external: true };
      });
      b.onLoad({ filter: /\.(c|m)?js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!/\b(__dirname|__filename|require\.resolve)\b/.test(text)) return undefined;
        const rel = JSON.stringify(path.relative(outDir, args.path));
        // On the first line, so the file's own source map still lines up.
        const here =
          `var __wcsFile = require("node:path").join(__dirname, ${rel}), ` +
          '__wcsDir = require("node:path").dirname(__wcsFile);';
        const body = text
          .replace(/\b__dirname\b/g, '__wcsDir')
          .replace(/\b__filename\b/g, '__wcsFile')
          .replace(/\brequire\.resolve\(/g, 'require("node:module").createRequire(__wcsFile).resolve(');
        return { contents: here + body, loader: 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/** Writes `outfile` and, beside it, `<outfile>.inputs.json`: the files it holds (lazy-modules.test.ts). */
export async function bundleEntry({ entry, outfile }) {
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    allowOverwrite: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    sourcesContent: false,
    minifyWhitespace: true,
    // Packages by their package.json `main` (their compiled dist/), not tsconfig's paths to src/.
    tsconfigRaw: '{}',
    plugins: [keepModulePaths(path.dirname(outfile))],
    metafile: true,
    logLevel: 'error',
  });
  writeFileSync(`${outfile}.inputs.json`, `${JSON.stringify(Object.keys(result.metafile.inputs))}\n`);
}
