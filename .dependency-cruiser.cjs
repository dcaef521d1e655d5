/**
 * The layers of the monorepo, checked by `pnpm depcheck` (dependency-cruiser; part of the README's
 * test command) on every import — type-only ones too — after resolution, so `@wcs/x` and
 * `../../x/src/…` count alike. Paths are relative to where depcruise runs (the repository root).
 *
 *   services/*            processes; use packages, never each other (services/one-process alone
 *                         starts them all in one process, through their package entries)
 *   packages/*            shared logic; never services, tests, bench or scripts
 *     errors config logger   the foundation: nothing of ours but errors
 *     net                    the one outbound HTTP layer: errors only (renderer, discovery, search,
 *                            webhook-dispatcher use it; it uses none of them)
 *     content                pure HTML -> formats: errors only (no renderer/net/db/queues/…)
 *     client-node client-python mcp-server   published alone: nothing of the monorepo
 *                            (mcp-server: client-node only)
 *     testing                fixtures: for *.test.ts, tests/ and bench/ only
 *     <pkg>/src/test-support/   helpers of a package's tests: for tests, never shipped code
 *   tests/ bench/ scripts/  may import anything
 *
 * No import cycle may span two packages, and code outside tests goes into another package through
 * its entry (`@wcs/x` = src/index.ts). Together these rule out package-level cycles in shipped
 * code: every entry re-exports its package, so a cycle between two packages is a module cycle.
 * No import cycle inside a package either (no-circular).
 *
 *   services/gateway/src   contract/ (request and response schemas) is read by routes/ (which
 *                          check them) and openapi/ (which describes them); those two never
 *                          import each other, and contract/ imports neither.
 */
const TEST_FILE = '\\.test\\.ts$';

const fs = require('node:fs');
const path = require('node:path');
/**
 * Subpath entries a package declares in its package.json `exports` (`./charset` -> src/charset.ts):
 * entries like its index, for a caller that must not load the whole package (a content thread).
 */
const SUBPATH_ENTRIES = fs.readdirSync(path.join(__dirname, 'packages')).flatMap((name) => {
  const manifest = path.join(__dirname, 'packages', name, 'package.json');
  if (!fs.existsSync(manifest)) return [];
  const exported = Object.keys(JSON.parse(fs.readFileSync(manifest, 'utf8')).exports ?? {});
  return exported.filter((k) => k !== '.').map((k) => `^packages/${name}/src/${k.slice(2)}\\.ts$`);
});
const ANY_OF_OURS = '^(packages|services|tests|bench|scripts)/';

/**
 * The floors of packages/content/src, each on the ones it lists (tests excepted): dom/ (tree helpers,
 * per-element stats, caps) under everything; rules/ (cleaners and page-shape detectors) on dom;
 * extract/ (main-content extractor, profiles, page-type classifier, metadata) on rules and dom;
 * render/ (serializers) on dom only. extract/ and render/ may read the output types (types.ts);
 * the pipeline on top (document.processor.ts, index.ts) uses them all, and no floor imports it.
 */
const CONTENT = '^packages/content/src/';
const CONTENT_FLOORS = {
  dom: [],
  rules: ['dom'],
  extract: ['dom', 'rules', 'types'],
  render: ['dom', 'types'],
  verdict: ['dom', 'types'],
};
const contentFloorRules = Object.entries(CONTENT_FLOORS).map(([floor, below]) => ({
  name: `content-floor-${floor}`,
  comment:
    `packages/content/src/${floor}/ imports only ${below.join(', ') || 'itself'} within the package: ` +
    'imports flow one way, from the pipeline down to dom/.',
  severity: 'error',
  from: { path: `${CONTENT}${floor}/`, pathNot: TEST_FILE },
  to: {
    path: CONTENT,
    pathNot: [floor, ...below].map((f) => (f === 'types' ? `${CONTENT}types\\.ts$` : `${CONTENT}${f}/`)),
  },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-service-to-service',
      comment: 'A service talks to another only through queues, HTTP or the database, never by import.',
      severity: 'error',
      // services/one-process runs every service in one process (small machines): it alone starts
      // the others, through their package entries (the next rule); none imports it.
      from: { path: '^services/([^/]+)/', pathNot: '^services/one-process/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'one-process-through-service-entries',
      comment:
        'The one-process mode starts each service as @wcs/<service> (its src/index.ts: service.ts ' +
        'definition and start function), never by a path into its files.',
      severity: 'error',
      from: { path: '^services/one-process/' },
      to: { path: '^services/', pathNot: ['^services/one-process/', '^services/[^/]+/src/index\\.ts$'] },
    },
    {
      name: 'no-package-to-service',
      comment: 'Packages are shared by the services; a package importing a service inverts the layers.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^services/' },
    },
    {
      name: 'no-production-to-tests',
      comment: 'Packages and services never import the end-to-end tests, the benchmarks or scripts.',
      severity: 'error',
      from: { path: '^(packages|services)/' },
      to: { path: '^(tests|bench|scripts)/' },
    },
    {
      name: 'foundation-stands-alone',
      comment: 'errors, config and logger are the bottom layer: nothing of ours but @wcs/errors.',
      severity: 'error',
      from: { path: '^packages/(errors|config|logger)/' },
      to: { path: [ANY_OF_OURS, '^@wcs/'], pathNot: '^packages/($1|errors)/' },
    },
    {
      name: 'net-is-the-bottom-of-io',
      comment:
        'packages/net is the one outbound HTTP layer (address policy, redirects, caps, typed errors): ' +
        '@wcs/errors only — never renderer, db, queues, content or any feature package (they use it).',
      severity: 'error',
      from: { path: '^packages/net/', pathNot: TEST_FILE },
      to: { path: [ANY_OF_OURS, '^@wcs/'], pathNot: '^packages/(net|errors)/' },
    },
    {
      name: 'content-is-pure',
      comment:
        'packages/content turns HTML into formats: @wcs/errors only — no renderer, net, db, queues, ' +
        'discovery, scraper, llm, search or testing (a caller hands it the HTML).',
      severity: 'error',
      from: { path: '^packages/content/' },
      to: { path: [ANY_OF_OURS, '^@wcs/'], pathNot: '^packages/(content|errors)/' },
    },
    {
      name: 'clients-stand-alone',
      comment: 'The published clients speak HTTP only: nothing of the monorepo.',
      severity: 'error',
      from: { path: '^packages/(client-node|client-python)/' },
      to: { path: [ANY_OF_OURS, '^@wcs/'], pathNot: '^packages/$1/' },
    },
    {
      name: 'mcp-server-on-client-node-only',
      comment: 'service-mcp is a thin layer over @wcs/client-node and nothing else of the monorepo.',
      severity: 'error',
      from: { path: '^packages/mcp-server/' },
      to: {
        path: [ANY_OF_OURS, '^@wcs/'],
        // client-node is consumed as users get it (dist/, or unresolved before its build).
        pathNot: ['^packages/(mcp-server|client-node)/', '^@wcs/client-node$'],
      },
    },
    {
      name: 'testing-only-in-tests',
      comment: 'Fixture sites and fake model servers never ship: @wcs/testing is for *.test.ts only.',
      severity: 'error',
      // A package's src/test-support/ holds helpers its own tests import (never its index).
      from: { path: '^(packages|services)/', pathNot: [TEST_FILE, '/test-support/', '^packages/testing/'] },
      to: { path: '^packages/testing/' },
    },
    {
      name: 'through-package-entry',
      comment:
        'Outside tests, another package is imported as @wcs/x (its src/index.ts) or by a subpath its ' +
        'package.json exports, not by a path into its files: its entries are its interface.',
      severity: 'error',
      from: { path: '^(packages|services)/([^/]+)/', pathNot: TEST_FILE },
      to: {
        path: '^packages/',
        pathNot: [
          '^packages/$2/',
          '^packages/[^/]+/src/index\\.ts$',
          '^packages/client-node/dist/(esm|cjs)/index\\.(js|d\\.ts)$',
          ...SUBPATH_ENTRIES,
        ],
      },
    },
    {
      name: 'no-cycle-between-packages',
      comment: 'An import cycle that leaves its package ties two packages into one.',
      severity: 'error',
      from: { path: '^(packages|services)/([^/]+)/' },
      to: { circular: true, via: { pathNot: '^(packages|services)/$2/' } },
    },
    {
      name: 'no-circular',
      comment:
        'No import cycle anywhere, inside a package too: a module in a cycle cannot be read, ' +
        'tested or loaded without the rest of it (a type shared by both belongs in a file of its own).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'gateway-routes-apart-from-openapi',
      comment:
        "The gateway's routes (which check requests) and its OpenAPI document (which describes " +
        'them) both read the schemas in contract/, never each other.',
      severity: 'error',
      from: { path: '^services/gateway/src/(routes|openapi)/' },
      to: { path: '^services/gateway/src/(routes|openapi)/', pathNot: '^services/gateway/src/$1/' },
    },
    {
      name: 'gateway-contract-stands-alone',
      comment:
        'contract/ holds the request and response schemas that routes/ and openapi/ share: it ' +
        'imports nothing else of the gateway, so it never runs back up into either.',
      severity: 'error',
      from: { path: '^services/gateway/src/contract/' },
      to: { path: '^services/gateway/src/', pathNot: '^services/gateway/src/contract/' },
    },
    {
      name: 'not-to-unresolvable',
      comment:
        'Every import resolves, so the rules above see it. Exceptions: what a build makes — the ' +
        'Prisma client (pnpm db:generate) and @wcs/client-node (its dist/).',
      severity: 'error',
      from: { path: ANY_OF_OURS },
      to: { couldNotResolve: true, pathNot: ['^@wcs/client-node$', '/generated/'] },
    },
    ...contentFloorRules,
    {
      name: 'test-support-only-in-tests',
      comment:
        "A package's src/test-support/ (helpers its tests import: page builders, the test database) " +
        'is for the tests: never shipped code.',
      severity: 'error',
      from: { path: '^(packages|services)/', pathNot: [TEST_FILE, '/src/test-support/'] },
      to: { path: '^(packages|services)/[^/]+/src/test-support/' },
    },
  ],
  options: {
    exclude: {
      path: [
        '(^|/)\\.turbo/',
        '^packages/db/src/generated/',
        '^tests/\\.examples/',
        '^bench/out/',
        '^bench/.*\\.tmp\\.',
      ],
    },
    // Kept as nodes (so an import of them is still checked), not cruised further.
    doNotFollow: { path: ['(^|/)node_modules/', '(^|/)dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: require('node:path').join(__dirname, 'tsconfig.json') },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    skipAnalysisNotInRules: true,
  },
};
