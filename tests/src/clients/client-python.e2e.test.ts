/**
 * The Python client (packages/client-python) against the real service: starts the client stack
 * in this process, runs the package's pytest suite in a child process (the live tests, the
 * README examples and the offline retry/timeout tests) and fails with pytest's whole output.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type ClientStack, startClientStack } from './client-stack';

const ROOT = path.resolve(__dirname, '../../..');
const PYTHON = '/usr/bin/python3';
/** Fewer passing tests than this means pytest collected far less than the suite holds. */
const MIN_PASSED = 20;

interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/** Runs a command asynchronously (the service lives in this process and must keep serving). */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, output: Buffer.concat(chunks).toString() }));
  });
}

/** Counts from pytest's closing line, e.g. "== 80 passed, 1 skipped in 12.3s ==". */
function summary(output: string): Record<string, number> {
  const lines = output.trim().split('\n');
  const last = lines.reverse().find((l) => / in [\d.]+s/.test(l)) ?? '';
  const counts: Record<string, number> = {};
  for (const m of last.matchAll(/(\d+) (passed|failed|errors?|skipped|xfailed|xpassed)/g)) {
    counts[m[2]!] = Number(m[1]);
  }
  return counts;
}

let stack: ClientStack;

beforeAll(async () => {
  stack = await startClientStack({ browser: true }); // page options: screenshots need Chromium
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

it('passes the Python client test suite against the service', async () => {
  const result = await run(
    PYTHON,
    ['-m', 'pytest', 'packages/client-python/tests', '-q', '-p', 'no:cacheprovider', '-rA'],
    {
      ...process.env,
      ...stack.clientEnv,
      PYTHONPATH: 'packages/client-python/src',
      PYTHONDONTWRITEBYTECODE: '1',
    },
  );
  const counts = summary(result.output);
  // scripts/test.sh prints this next to jest's own counts.
  mkdirSync(path.join(ROOT, '.data'), { recursive: true });
  writeFileSync(
    path.join(ROOT, '.data/pytest-summary.txt'),
    `${counts.passed ?? 0} passed, ${(counts.failed ?? 0) + (counts.error ?? 0) + (counts.errors ?? 0)} failed, ${counts.skipped ?? 0} skipped\n`,
  );
  const verdict = `pytest exited with ${result.code ?? result.signal}; counts ${JSON.stringify(counts)}`;
  if (result.code !== 0 || (counts.passed ?? 0) < MIN_PASSED) {
    throw new Error(`${verdict}\n\n${result.output}`);
  }
  expect(result.code).toBe(0);
  expect(counts.failed ?? 0).toBe(0);
  expect(counts.passed).toBeGreaterThanOrEqual(MIN_PASSED);
}, 240_000);
