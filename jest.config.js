/** One jest run for the whole repository; `pnpm --filter <pkg> test` narrows it by path. */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/{services,packages,tests}/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // ESM packages (client-node, mcp-server) import './x.js' for Node; in jest that is './x.ts'.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }] },
  testTimeout: 60_000,
  maxWorkers: 2,
};
