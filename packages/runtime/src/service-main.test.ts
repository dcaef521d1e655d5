/**
 * serviceMain: a service's main.ts starts its service when run as the process's main module, and
 * only exports `main` when loaded by another module (the bundle's loader, the build writing the
 * bundle's code cache). Real `node` processes on the compiled runtime (needs the build).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const RUNTIME = path.resolve(__dirname, '..', 'dist', 'index.js');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'service-main-'));
  // A definition whose config always fails: runService reports it on one line and exits 1.
  writeFileSync(
    path.join(dir, 'entry.cjs'),
    `const { serviceMain } = require(${JSON.stringify(RUNTIME)});
     exports.main = serviceMain(module, {
       service: 'probe',
       loadEnv() { throw new Error('probe config refused'); },
       start() { throw new Error('unreachable'); },
     });`,
  );
  writeFileSync(
    path.join(dir, 'loader.cjs'),
    `const { main } = require('./entry.cjs');
     process.stdout.write(typeof main);`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (file: string) => spawnSync(process.execPath, [path.join(dir, file)], { encoding: 'utf8' });

it('starts the service when its file is the process’s main module', () => {
  const r = run('entry.cjs');
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('probe: probe config refused');
});

it('only exports main when another module loads it', () => {
  const r = run('loader.cjs');
  expect(r.status).toBe(0);
  expect(r.stdout).toBe('function');
  expect(r.stderr).toBe('');
});
