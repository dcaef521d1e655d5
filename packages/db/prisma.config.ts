import path from 'node:path';
import { defineConfig, env } from 'prisma/config';
import { createMigrationAdapter } from './src/migration-adapter';
import { migrationDatabaseUrl } from './src/migration-url';
import { unrefLongTimers } from './src/unref-long-timers';

/**
 * Prisma CLI config. The JS schema engine talks to PostgreSQL through the pg driver adapter, so
 * `generate` and `migrate deploy` need no downloaded engine binaries (fully offline).
 * DATABASE_URL is read lazily, inside adapter(), for the commands that touch the database;
 * DIRECT_DATABASE_URL wins when set (Prisma's `directUrl`): DATABASE_URL may go through PgBouncer,
 * which migrations cannot use (src/migration-url.ts).
 */
const optionalEnv = (name: string): string | undefined => {
  try {
    return env(name) || undefined;
  } catch {
    return undefined; // prisma/config's env() throws when the variable is unset
  }
};

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join(__dirname, '../../prisma/schema.prisma'),
  migrations: { path: path.join(__dirname, '../../prisma/migrations') },
  adapter: async () => {
    unrefLongTimers();
    return createMigrationAdapter(
      migrationDatabaseUrl(optionalEnv('DATABASE_URL'), optionalEnv('DIRECT_DATABASE_URL')),
    );
  },
});
