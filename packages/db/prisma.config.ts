import path from 'node:path';
import { defineConfig, env } from 'prisma/config';
import { createMigrationAdapter } from './src/migration-adapter';
import { unrefLongTimers } from './src/unref-long-timers';

/**
 * Prisma CLI config. The JS schema engine talks to PostgreSQL through the pg driver adapter, so
 * `generate` and `migrate deploy` need no downloaded engine binaries (fully offline).
 * DATABASE_URL is read lazily, inside adapter(), for the commands that touch the database.
 */
export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join(__dirname, '../../prisma/schema.prisma'),
  migrations: { path: path.join(__dirname, '../../prisma/migrations') },
  adapter: async () => {
    unrefLongTimers();
    return createMigrationAdapter(env('DATABASE_URL'));
  },
});
