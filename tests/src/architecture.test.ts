import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The layer rules of `pnpm depcheck` (.dependency-cruiser.cjs) can fail: dependency-cruiser's CLI,
 * with the repository's config, over a small temporary tree laid out like the monorepo (packages
 * linked into node_modules/@wcs as pnpm does) in which each rule is broken once. Every violation
 * must be reported under its rule, and nothing else (the allowed imports next to them pass).
 */
const ROOT = join(__dirname, '..', '..');
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

const PACKAGES = [
  'packages/errors',
  'packages/config',
  'packages/logger',
  'packages/db',
  'packages/content',
  'packages/queues',
  'packages/scraper',
  'packages/search',
  'packages/renderer',
  'packages/net',
  'packages/testing',
  'packages/discovery',
  'packages/cli',
  'packages/client-node',
  'packages/mcp-server',
  'services/gateway',
  'services/scrape-worker',
  'services/one-process',
];

/** file -> its source; every package also gets src/index.ts (`export {}`) unless listed here. */
const FILES: Record<string, string> = {
  // allowed: content on errors, a worker on packages, a test on @wcs/testing, mcp-server on client-node
  'packages/content/src/index.ts': "export { e } from '@wcs/errors';\n",
  'packages/errors/src/index.ts': 'export const e = 1;\n',
  'packages/renderer/src/engine.test.ts': "import '@wcs/testing';\n",
  'packages/mcp-server/src/tools.ts': "import '@wcs/client-node';\n",
  'services/scrape-worker/src/env.ts': "import '@wcs/db';\nimport '@wcs/content';\nimport '@wcs/queues';\n",
  'packages/db/src/internal.ts': 'export const internal = 1;\n',
  'packages/net/src/index.ts': "export { e } from '@wcs/errors';\n",
  'packages/renderer/src/index.ts': "import '@wcs/net';\n",
  // broken, one rule each
  'packages/content/src/leak.ts': "import '@wcs/db';\n",
  'packages/net/src/up.ts': "import '@wcs/renderer';\n",
  'services/scrape-worker/src/main.ts': "import '@wcs/gateway';\n",
  'packages/discovery/src/index.ts': "import '../../../services/gateway/src/index';\n",
  'packages/cli/src/main.ts': "import '../../../tests/src/harness';\n",
  'tests/src/harness.ts': 'export {};\n',
  'packages/logger/src/index.ts': "import '@wcs/db';\n",
  'packages/client-node/src/index.ts': "import '../../errors/src/index';\n",
  'packages/mcp-server/src/main.ts': "import '@wcs/errors';\n",
  'packages/renderer/src/engine.ts': "import '@wcs/testing';\n",
  'packages/search/src/index.ts': "import '@wcs/db/src/internal';\n",
  'packages/queues/src/index.ts': "import '@wcs/scraper';\n",
  'packages/scraper/src/index.ts': "import '@wcs/queues';\n",
  'packages/config/src/index.ts': "import './missing';\n",
  // the floors of packages/content/src: allowed imports, then one broken floor rule each
  'packages/content/src/types.ts': 'export {};\n',
  'packages/content/src/dom/d.ts': 'export {};\n',
  'packages/content/src/rules/r.ts': "import '../dom/d';\n",
  'packages/content/src/extract/x.ts': "import '../rules/r';\nimport '../dom/d';\nimport '../types';\n",
  'packages/content/src/render/s.ts': "import '../dom/d';\nimport '../types';\n",
  'packages/content/src/rules/r.test.ts': "import '../extract/x';\nimport '../test-support/kit';\n",
  'packages/content/src/test-support/kit.ts': "import '../index';\nimport '../render/s';\n",
  'packages/content/src/dom/up.ts': "import '../rules/r';\n",
  'packages/content/src/rules/up.ts': "import '../extract/x';\n",
  'packages/content/src/extract/up.ts': "import '../render/s';\n",
  'packages/content/src/render/up.ts': "import '../rules/r';\n",
  'packages/content/src/document.processor.ts': "import './test-support/kit';\n",
  // a package's test-support/ (db's test database here): its tests and other packages' tests only
  'packages/db/src/test-support/test-database.ts': "import '../internal';\n",
  'packages/db/src/pool.test.ts': "import './test-support/test-database';\n",
  'packages/cli/src/main.test.ts': "import '@wcs/db/src/test-support/test-database';\n",
  'packages/db/src/pool.ts': "import './test-support/test-database';\n",
  // the gateway's contract/ between routes/ and openapi/: both read it (allowed), not each other
  'services/gateway/src/deps.ts': 'export {};\n',
  'services/gateway/src/contract/scrape.request.ts': 'export const body = 1;\n',
  'services/gateway/src/routes/scrape.routes.ts': "import '../contract/scrape.request';\nimport '../deps';\n",
  'services/gateway/src/openapi/operations.ts': "import '../contract/scrape.request';\n",
  'services/gateway/src/routes/map.routes.ts': "import '../openapi/operations';\n",
  'services/gateway/src/openapi/document.ts': "import '../routes/scrape.routes';\n",
  'services/gateway/src/contract/responses.ts': "import '../deps';\n",
  // the one-process mode starts services through their entries (allowed), not a path into them;
  // no other service imports it
  'services/one-process/src/one-process.ts': "import '@wcs/gateway';\nimport '@wcs/scrape-worker';\n",
  'services/one-process/src/deep.ts': "import '../../gateway/src/deps';\n",
  'services/gateway/src/app.ts': "import '@wcs/one-process';\n",
  // a cycle inside one package
  'services/scrape-worker/src/wiring.ts': "import './processor';\n",
  'services/scrape-worker/src/processor.ts': "import './wiring';\n",
};

const EXPECTED = [
  'content-is-pure: packages/content/src/leak.ts -> packages/db/src/index.ts',
  'net-is-the-bottom-of-io: packages/net/src/up.ts -> packages/renderer/src/index.ts',
  'no-service-to-service: services/scrape-worker/src/main.ts -> services/gateway/src/index.ts',
  'no-service-to-service: services/gateway/src/app.ts -> services/one-process/src/index.ts',
  'one-process-through-service-entries: services/one-process/src/deep.ts -> services/gateway/src/deps.ts',
  'no-package-to-service: packages/discovery/src/index.ts -> services/gateway/src/index.ts',
  'no-production-to-tests: packages/cli/src/main.ts -> tests/src/harness.ts',
  'foundation-stands-alone: packages/logger/src/index.ts -> packages/db/src/index.ts',
  'clients-stand-alone: packages/client-node/src/index.ts -> packages/errors/src/index.ts',
  'mcp-server-on-client-node-only: packages/mcp-server/src/main.ts -> packages/errors/src/index.ts',
  'testing-only-in-tests: packages/renderer/src/engine.ts -> packages/testing/src/index.ts',
  'through-package-entry: packages/search/src/index.ts -> packages/db/src/internal.ts',
  'not-to-unresolvable: packages/config/src/index.ts -> ./missing',
  'content-floor-dom: packages/content/src/dom/up.ts -> packages/content/src/rules/r.ts',
  'content-floor-rules: packages/content/src/rules/up.ts -> packages/content/src/extract/x.ts',
  'content-floor-extract: packages/content/src/extract/up.ts -> packages/content/src/render/s.ts',
  'content-floor-render: packages/content/src/render/up.ts -> packages/content/src/rules/r.ts',
  'test-support-only-in-tests: packages/content/src/document.processor.ts -> packages/content/src/test-support/kit.ts',
  'test-support-only-in-tests: packages/db/src/pool.ts -> packages/db/src/test-support/test-database.ts',
  'gateway-routes-apart-from-openapi: services/gateway/src/routes/map.routes.ts -> services/gateway/src/openapi/operations.ts',
  'gateway-routes-apart-from-openapi: services/gateway/src/openapi/document.ts -> services/gateway/src/routes/scrape.routes.ts',
  'gateway-contract-stands-alone: services/gateway/src/contract/responses.ts -> services/gateway/src/deps.ts',
].sort();

let tree: string;

function write(file: string, text: string) {
  mkdirSync(dirname(join(tree, file)), { recursive: true });
  writeFileSync(join(tree, file), text);
}

beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'wcs-layers-'));
  mkdirSync(join(tree, 'node_modules', '@wcs'), { recursive: true });
  for (const dir of PACKAGES) {
    const name = dir.split('/')[1] as string;
    write(`${dir}/package.json`, JSON.stringify({ name: `@wcs/${name}`, main: 'src/index.ts' }));
    if (!FILES[`${dir}/src/index.ts`]) write(`${dir}/src/index.ts`, 'export {};\n');
    symlinkSync(join(tree, dir), join(tree, 'node_modules', '@wcs', name), 'dir');
  }
  for (const [file, text] of Object.entries(FILES)) write(file, text);
});
afterAll(() => {
  if (tree) rmSync(tree, { recursive: true, force: true });
});

describe('layer rules (pnpm depcheck)', () => {
  it('report each broken rule, and only those', () => {
    const depcruise = (outputType: string) =>
      spawnSync(
        DEPCRUISE,
        ['--config', CONFIG, '--output-type', outputType, 'packages', 'services', 'tests'],
        {
          cwd: tree,
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
    const run = depcruise('json');
    if (!run.stdout) throw new Error(`depcruise printed nothing: ${run.stderr}`);
    const result = JSON.parse(run.stdout) as {
      summary: {
        error: number;
        violations: Array<{ from: string; to: string; rule: { name: string; severity: string } }>;
      };
    };
    const found = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
    const isCycle = (f: string) => f.startsWith('no-cycle-between-packages:') || f.startsWith('no-circular:');
    expect(found.filter((f) => !isCycle(f)).sort()).toEqual(EXPECTED);
    // The queues <-> scraper cycle, reported from one of its edges.
    const cycles = found.filter((f) => f.startsWith('no-cycle-between-packages:'));
    expect(cycles.length).toBeGreaterThan(0);
    for (const c of cycles)
      expect(c).toMatch(/packages\/(queues|scraper)\/src\/index\.ts -> packages\/(queues|scraper)\//);
    // no-circular: that cycle and the one inside scrape-worker, each from one of its edges.
    const circular = found.filter((f) => f.startsWith('no-circular:'));
    const inWorker =
      /services\/scrape-worker\/src\/(wiring|processor)\.ts -> services\/scrape-worker\/src\/(wiring|processor)\.ts$/;
    const acrossPackages = /packages\/(queues|scraper)\/src\/index\.ts -> packages\/(queues|scraper)\//;
    expect(circular.some((c) => inWorker.test(c))).toBe(true);
    expect(circular.some((c) => acrossPackages.test(c))).toBe(true);
    for (const c of circular) expect(inWorker.test(c) || acrossPackages.test(c)).toBe(true);
    expect(result.summary.violations.every((v) => v.rule.severity === 'error')).toBe(true);
    // With the reporter `pnpm depcheck` uses, the CLI fails: that stops scripts/test.sh.
    const err = depcruise('err');
    expect(err.status).not.toBe(0);
    expect(err.stdout).toContain('content-is-pure');
  });
});
