import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findProcessEnvReads } from './process-env-readers';
import { ROOT, repoFiles } from './repo-files';

/**
 * Only packages/config reads `process.env` (loadEnv, rawEnv, envWithLocalFile); everything else
 * gets a parsed config or asks config for a raw variable. Handing the environment on to a child
 * process is not reading it. The few other readers are listed here with why; a new one fails the
 * test until it goes through @wcs/config or is listed.
 */
const CONFIG = 'packages/config/src/';

const ALLOWED: Record<string, string> = {
  'packages/client-node/src/service-client.ts':
    'published on its own (no @wcs/config): reads SERVICE_API_KEY / SERVICE_BASE_URL itself',
  'packages/mcp-server/src/env.ts':
    'published on its own (no @wcs/config): its one env.ts reads its variables',
  'packages/content/src/test-support/markup-invariance.ts':
    'BENCH_DIR for the invariance tests; packages/content imports nothing of ours but @wcs/errors',
  'scripts/supervise.ts': 'hands its environment (plus the stores) to the services it runs',
  'tests/src/clients/client-node.e2e.test.ts':
    "sets and restores SERVICE_API_KEY / SERVICE_BASE_URL to test the client's own fallback to them",
};

const SOURCE = /\.(?:ts|tsx|mts|cts)$/;

describe('process.env is read in packages/config only', () => {
  it('tells a read from the environment handed on to a child, and ignores comments and strings', () => {
    const source = [
      'const a = process.env.DATABASE_URL;', // 1: read
      "const b = process.env['REDIS_URL'];", // 2: read
      'const { PORT } = process.env;', // 3: read
      'spawn(cmd, [], { env: { ...process.env, A: "1" } });', // 4: handed on
      'spawn(cmd, [], { env: process.env });', // 5: handed on
      'spawn(cmd, [], { env: { PATH: process.env.PATH ?? "" } });', // 6: handed on
      '// process.env.X in a comment', // 7: nothing
      'const s = \'process.env.X\' + "process.env.Y";', // 8: nothing
      'loadEnv(schema, process.env);', // 9: read (an argument)
    ].join('\n');
    expect(findProcessEnvReads(source)).toEqual([
      { line: 1, passedOn: false },
      { line: 2, passedOn: false },
      { line: 3, passedOn: false },
      { line: 4, passedOn: true },
      { line: 5, passedOn: true },
      { line: 6, passedOn: true },
      { line: 9, passedOn: false },
    ]);
  });

  it('no file outside packages/config reads it but the listed ones, and every listed one still does', () => {
    const readers = new Set<string>();
    const unlisted: string[] = [];
    for (const file of repoFiles()) {
      if (!SOURCE.test(file) || file.startsWith(CONFIG)) continue;
      const reads = findProcessEnvReads(readFileSync(join(ROOT, file), 'utf8'), file);
      if (reads.some((r) => !r.passedOn)) readers.add(file);
      if (!(file in ALLOWED)) {
        for (const r of reads) if (!r.passedOn) unlisted.push(`${file}:${r.line}`);
      }
    }
    // Read a setting through @wcs/config (loadEnv with a schema, or rawEnv for a tool's own variable).
    expect(unlisted).toEqual([]);
    expect(Object.keys(ALLOWED).filter((f) => !readers.has(f))).toEqual([]);
  });

  it('packages/config does read it (the check looks where the readers are)', () => {
    const reads = findProcessEnvReads(readFileSync(join(ROOT, CONFIG, 'load-env.ts'), 'utf8'));
    expect(reads.length).toBeGreaterThan(0);
  });
});
