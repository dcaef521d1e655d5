#!/usr/bin/env bash
# The README's run command: install, build, migrate, start gateway + every worker on PORT (3002).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-tools.sh
export TURBO_TELEMETRY_DISABLED=1
pnpm --silent typecheck >&2
exec pnpm --silent exec tsx scripts/with-stores.ts --write-env-file -- pnpm --silent exec tsx scripts/supervise.ts "$@"
