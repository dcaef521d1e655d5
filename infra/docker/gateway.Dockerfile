# syntax=docker/dockerfile:1
# gateway: built from the repository root (docker compose sets the context).
FROM node:20-bookworm-slim
RUN npm install -g pnpm@10.34.9
WORKDIR /app
COPY . .
# The dashboard page (/dashboard) is built into packages/dashboard/dist at image build time.
RUN pnpm install --frozen-lockfile --filter "@wcs/gateway..." --filter "@wcs/db" \
 && pnpm --filter @wcs/db generate \
 && pnpm --filter @wcs/dashboard run build
ENV NODE_ENV=production
USER node
WORKDIR /app/services/gateway
CMD ["node", "--import", "tsx", "src/main.ts"]
