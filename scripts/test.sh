#!/usr/bin/env bash
# The README's test command: install, build (typecheck), lint, check the dependency layers, start
# the stores the tests need, run every test against real PostgreSQL, Redis and Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase's wall time, printed at the end (so a slower suite shows where it grew).
PHASES=()
phase_started=$SECONDS
end_phase() {
  PHASES+=("$(printf '%-34s %5ss' "$1" "$((SECONDS - phase_started))")")
  phase_started=$SECONDS
}
print_phases() {
  echo "== phase times"
  printf '  %s\n' "${PHASES[@]}"
  echo "  total                              ${SECONDS}s"
}
bash scripts/ensure-tools.sh
end_phase "setup (installs, client builds)"
echo "== typecheck (every package in one program)"
pnpm --silent typecheck
end_phase "typecheck"
echo "== build (compiled services for the tests that run them as processes: pnpm build)"
node scripts/build.mjs
end_phase "build"
echo "== lint"
pnpm --silent lint
end_phase "lint"
echo "== dependency layers (dependency-cruiser, .dependency-cruiser.cjs)"
pnpm --silent depcheck
end_phase "dependency layers"
echo "== tests"
mkdir -p .data
rm -f .data/pytest-summary.txt .data/jest-results.json .data/jest-solo-results.json .data/jest-browser-results.json \
  .data/jest-one-process-results.json
# The dashboard's browser tests (tests/src/dashboard: a stack and a Chromium per file) run after
# the rest, not beside it: on 2 cores their load stretched the timers of the budget tests (map, job
# budgets) past their limits. With arguments (`bash scripts/test.sh <path>`) one pass runs them.
BROWSER_TESTS='tests/src/dashboard/'
# Files that assert what the whole database does run alone, after the main pass: every stack's
# monitor reconciler reads all active monitors, so another file's stack starting while
# monitor-reconcile holds Redis empty gave its monitors catch-up checks (the test asserts none);
# crawl-recovery's rescuer runs the crawl reconciler as production does (stranded pages re-enqueued
# after seconds), which in the shared pass would take other files' pages.
SOLO_TESTS='tests/src/(monitor-reconcile|crawl-recovery).e2e.test.ts'
# The one-process mode (`pnpm start --one-process`: every service in one process, the workers
# sharing one content pool and renderer) runs the e2e files of its main paths again, with the
# harness starting the stack through that mode's wiring (STACK_MODE, tests/src/harness.ts).
ONE_PROCESS_TESTS=(tests/src/scrape.e2e.test.ts tests/src/batch.e2e.test.ts tests/src/crawl.e2e.test.ts
  tests/src/monitor.e2e.test.ts)
jest_pass() {
  local out=$1
  shift
  pnpm --silent exec tsx scripts/with-stores.ts --db-name wcs_test -- \
    pnpm --silent exec jest --ci --json --outputFile="$out" "$@"
}
set +e
browser_status=0
if [ "$#" -gt 0 ]; then
  jest_pass .data/jest-results.json "$@"
  status=$?
  end_phase "tests (the paths given)"
else
  jest_pass .data/jest-results.json --testPathIgnorePatterns=/node_modules/ \
    --testPathIgnorePatterns=/dist/ --testPathIgnorePatterns="$BROWSER_TESTS" \
    --testPathIgnorePatterns="$SOLO_TESTS"
  status=$?
  end_phase "tests (main pass)"
  echo "== tests that need the database to themselves"
  jest_pass .data/jest-solo-results.json --runInBand "$SOLO_TESTS"
  [ "$?" -eq 0 ] || status=1
  end_phase "tests (database to themselves)"
  echo "== browser tests (the dashboard in Chromium)"
  jest_pass .data/jest-browser-results.json "$BROWSER_TESTS"
  browser_status=$?
  end_phase "tests (dashboard in Chromium)"
  echo "== one-process mode (scrape, batch, crawl, monitor e2e with STACK_MODE=one-process)"
  STACK_MODE=one-process jest_pass .data/jest-one-process-results.json "${ONE_PROCESS_TESTS[@]}"
  [ "$?" -eq 0 ] || status=1
  end_phase "tests (one-process mode)"
  # Several hosts with faults (tests/hosts): its own stores, gateway and two worker hosts in network
  # namespaces (needs root), a 500-URL batch and a 300-page crawl while a worker host loses its
  # link or its processes; one row per fault, docs/reliability/hosts.md.
  echo "== hosts (stores, gateway, two worker hosts in network namespaces, with faults)"
  pnpm --silent exec tsx tests/hosts/run-hosts.ts
  [ "$?" -eq 0 ] || status=1
  end_phase "tests (hosts with faults)"
fi
set -e
# The Python client's pytest suite runs inside one jest test (it needs the service jest starts).
if [ -f .data/pytest-summary.txt ]; then echo "python client (pytest): $(cat .data/pytest-summary.txt)"; fi
node -e '
  const fs = require("fs");
  let [p, f, s] = [0, 0, 0];
  const failures = [];
  for (const file of [".data/jest-results.json", ".data/jest-solo-results.json", ".data/jest-browser-results.json",
    ".data/jest-one-process-results.json"]) {
    if (!fs.existsSync(file)) continue;
    const r = JSON.parse(fs.readFileSync(file, "utf8"));
    p += r.numPassedTests; f += r.numFailedTests; s += r.numPendingTests;
    // The failures again, at the end where a truncated log still shows them: file, test, first line.
    for (const t of r.testResults ?? []) {
      const file = t.name.replace(process.cwd() + "/", "");
      if (t.status === "failed" && !(t.assertionResults ?? []).some((a) => a.status === "failed"))
        failures.push(`${file}: ${(t.message ?? "").split("\n").find((l) => l.trim()) ?? "failed to run"}`);
      for (const a of t.assertionResults ?? []) {
        if (a.status !== "failed") continue;
        const why = (a.failureMessages ?? []).join("\n").split("\n").find((l) => l.trim()) ?? "";
        failures.push(`${file} > ${a.fullName}: ${why.trim().slice(0, 300)}`);
      }
    }
  }
  if (failures.length > 0) {
    console.log("== failed tests");
    for (const line of failures.slice(0, 30)) console.log(`  ${line}`);
    if (failures.length > 30) console.log(`  (+${failures.length - 30} more)`);
  }
  console.log(`${p} passed, ${f} failed, ${s} skipped`);
'
print_phases
[ "$status" -eq 0 ] && [ "$browser_status" -eq 0 ]
