# syntax=docker/dockerfile:1
# One-shot: applies the committed Prisma migrations (prisma migrate deploy), then exits.
FROM node:20-bookworm-slim
RUN npm install -g pnpm@10.34.9
WORKDIR /app
COPY . .
RUN pnpm install --frozen-lockfile --filter "@wcs/db" && pnpm --filter @wcs/db generate
ENV NODE_ENV=production
USER node
WORKDIR /app/packages/db
CMD ["node", "node_modules/prisma/build/index.js", "migrate", "deploy"]
