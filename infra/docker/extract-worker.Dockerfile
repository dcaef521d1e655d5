# syntax=docker/dockerfile:1
# extract-worker: built from the repository root (docker compose sets the context).
FROM node:20-bookworm-slim
# Debian Chromium for pages that need JavaScript (Playwright drives it; no browser download).
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation \
 && rm -rf /var/lib/apt/lists/*
ENV BROWSER_EXECUTABLE=/usr/bin/chromium
RUN npm install -g pnpm@10.34.9
WORKDIR /app
COPY . .
RUN pnpm install --frozen-lockfile --filter "@wcs/extract-worker..." --filter "@wcs/db" \
 && pnpm --filter @wcs/db generate
ENV NODE_ENV=production
USER node
WORKDIR /app/services/extract-worker
CMD ["node", "--import", "tsx", "src/main.ts"]
