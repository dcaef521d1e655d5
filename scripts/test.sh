#!/usr/bin/env bash
# The README's test command: install, build (typecheck), lint, check the dependency layers, start
# the stores the tests need, run every test against real PostgreSQL, Redis and Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-tools.sh
export TURBO_TELEMETRY_DISABLED=1
echo "== build (typecheck of every package in one program; turbo runs the per-package builds: pnpm build)"
pnpm --silent typecheck
echo "== lint"
pnpm --silent lint
echo "== dependency layers (dependency-cruiser, .dependency-cruiser.cjs)"
pnpm --silent depcheck
echo "== tests"
mkdir -p .data
rm -f .data/pytest-summary.txt
set +e
pnpm --silent exec tsx scripts/with-stores.ts --db-name wcs_test -- \
  pnpm --silent exec jest --ci --json --outputFile=.data/jest-results.json "$@"
status=$?
set -e
# The Python client's pytest suite runs inside one jest test (it needs the service jest starts).
if [ -f .data/pytest-summary.txt ]; then echo "python client (pytest): $(cat .data/pytest-summary.txt)"; fi
if [ -f .data/jest-results.json ]; then
  node -e '
    const r = require("./.data/jest-results.json");
    console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`);
  '
fi
exit $status
