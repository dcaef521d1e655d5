/** One jest run for the whole repository; `pnpm --filter <pkg> test` narrows it by path. */
const { paths } = require('./tsconfig.base.json').compilerOptions;

// Workspace packages resolve to their TypeScript sources (tsconfig `paths`, which tsx and tsc use
// too); their package.json `main` points at the compiled dist/ that production runs.
const workspaceSources = Object.fromEntries(
  Object.entries(paths).map(([alias, [target]]) => [
    `^${alias.replace('*', '(.*)')}$`,
    `<rootDir>/${target.replace('./', '').replace('*', '$1')}`,
  ]),
);

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/{services,packages,tests}/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // bench:content's earlier revisions of packages (bench/out/baseline) are not this workspace's.
  modulePathIgnorePatterns: ['<rootDir>/bench/out/'],
  // ESM packages (client-node, mcp-server) import './x.js' for Node; in jest that is './x.ts'.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1', ...workspaceSources },
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }] },
  testTimeout: 60_000,
  maxWorkers: 2,
};
