// Builds dist/esm (import) and dist/cjs (require), each with type declarations. Two tsc runs
// rather than a bundler: the client has no dependencies, so plain per-file output is enough.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const common = [
  '-p',
  path.join(root, 'tsconfig.json'),
  '--noEmit',
  'false',
  '--declaration',
  '--sourceMap',
  'false',
];

function tscRun(args) {
  try {
    execFileSync(process.execPath, [tsc, ...common, ...args], { stdio: 'inherit' });
  } catch {
    process.exit(1); // tsc printed the errors
  }
}

rmSync(path.join(root, 'dist'), { recursive: true, force: true });
tscRun(['--outDir', path.join(root, 'dist/esm')]);
tscRun(['--module', 'commonjs', '--moduleResolution', 'node10', '--outDir', path.join(root, 'dist/cjs')]);
// The package is "type": "module"; this marks the CommonJS half as CommonJS for Node.
mkdirSync(path.join(root, 'dist/cjs'), { recursive: true });
writeFileSync(path.join(root, 'dist/cjs/package.json'), '{ "type": "commonjs" }\n');
