#!/usr/bin/env bash
# Installs what a fresh clone needs on this machine kind: pnpm, the dependencies, Chromium
# (Debian's package; Playwright's own browser download cannot work offline), the Prisma client.
set -euo pipefail
cd "$(dirname "$0")/.."
PNPM_VERSION=10.34.9

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  echo "[setup] installing pnpm $PNPM_VERSION" >&2
  npm install -g "pnpm@$PNPM_VERSION" >/dev/null 2>&1 || npm install -g "pnpm@$PNPM_VERSION"
fi

if [ ! -x /usr/bin/chromium ] && [ "${SKIP_CHROMIUM:-}" != "1" ]; then
  echo "[setup] installing Chromium from Debian's packages" >&2
  if [ "$(id -u)" = "0" ]; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "[setup] Chromium is missing: run 'sudo apt-get update && sudo apt-get install -y chromium' (or set BROWSER_ENABLED=false)" >&2
  fi
fi

# The compose file is validated offline by the tests (no Docker engine runs on this machine kind).
if ! command -v docker-compose >/dev/null 2>&1 && ! docker compose version >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  echo "[setup] installing docker-compose (to validate docker-compose.yml)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null; }
fi

# The Python client's tests run under Debian's python3 with Debian's httpx and pytest (PyPI is
# not reachable on this machine kind).
if ! /usr/bin/python3 -c 'import httpx, pytest' >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  echo "[setup] installing python3-httpx and python3-pytest (Python client tests)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-httpx python3-pytest >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-httpx python3-pytest >/dev/null; }
fi

# PgBouncer (Debian's 1.18): the tests that run the stack behind a pooler in transaction mode
# (docs/operations.md "Behind PgBouncer"). Without it those tests are skipped.
if ! { command -v pgbouncer || [ -x /usr/sbin/pgbouncer ]; } >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ]; then
    echo "[setup] installing pgbouncer (tests behind a connection pooler)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null 2>&1; } \
      || echo "[setup] could not install pgbouncer: the PgBouncer tests will be skipped" >&2
    # The package's own service is not wanted: tests start their own on a free port.
    { command -v systemctl >/dev/null 2>&1 && systemctl disable --now pgbouncer >/dev/null 2>&1; } || true
  else
    echo "[setup] pgbouncer missing (sudo apt-get install -y pgbouncer): the PgBouncer tests will be skipped" >&2
  fi
fi

# Optional OCR of PDFs without a text layer (OCR_ENABLED): Debian's tesseract-ocr and poppler-utils
# (pdftoppm). Without them the OCR tests are skipped and such PDFs answer NO_TEXT_LAYER.
if ! { command -v tesseract && command -v pdftoppm; } >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ]; then
    echo "[setup] installing tesseract-ocr, tesseract-ocr-eng and poppler-utils (optional OCR)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-eng poppler-utils >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-eng poppler-utils >/dev/null 2>&1; } \
      || echo "[setup] could not install tesseract-ocr/poppler-utils: the OCR tests will be skipped" >&2
  else
    echo "[setup] tesseract/pdftoppm missing (sudo apt-get install -y tesseract-ocr tesseract-ocr-eng poppler-utils): the OCR tests will be skipped" >&2
  fi
fi

pnpm install --frozen-lockfile --reporter=silent 2>&1 | grep -v 'nodedir' >&2 || true
pnpm --silent db:generate >/dev/null
# The published packages ship compiled JS (ESM + CommonJS + types); tests use what users get.
pnpm --silent --filter @wcs/client-node run build
pnpm --silent --filter service-mcp run build
# The dashboard's page (Vite → packages/dashboard/dist), served by the gateway at /dashboard.
pnpm --silent --filter @wcs/dashboard run build >/dev/null
