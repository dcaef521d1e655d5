#!/usr/bin/env bash
# The README's run command: install, typecheck, build (incremental), then the supervisor starts
# PostgreSQL/Redis if needed, migrates, and runs every compiled service on PORT (3002). The process
# tree is one supervisor and one `node dist/main.js` per service: no pnpm, tsx or esbuild process.
# `pnpm start --one-process` (arguments pass through to the supervisor) runs every service in one
# Node process instead, for small machines (docs/operations/one-process.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-tools.sh
pnpm --silent typecheck >&2
node scripts/build.mjs
exec node scripts/dist/supervise.js --with-stores "$@"
