import { migrationDatabaseUrl } from './migration-url';
import { migrateDatabase } from './migrations';

describe('migrationDatabaseUrl', () => {
  const direct = 'postgresql://u@db:5432/wcs';
  const pooled = 'postgresql://u@pgbouncer:6432/wcs?pgbouncer=true';

  test('DIRECT_DATABASE_URL wins; DATABASE_URL otherwise', () => {
    expect(migrationDatabaseUrl(pooled, direct)).toBe(direct);
    expect(migrationDatabaseUrl(direct)).toBe(direct);
    expect(migrationDatabaseUrl(direct, '')).toBe(direct);
  });

  test('a URL through PgBouncer is refused, naming the setting to use', () => {
    expect(() => migrationDatabaseUrl(pooled)).toThrow(
      /DATABASE_URL has pgbouncer=true.*DIRECT_DATABASE_URL/,
    );
    expect(() => migrationDatabaseUrl(direct, pooled)).toThrow(/^DIRECT_DATABASE_URL has pgbouncer=true/);
    expect(() => migrationDatabaseUrl(undefined)).toThrow(/required/);
  });

  test('migrateDatabase refuses it before connecting', async () => {
    await expect(migrateDatabase(pooled)).rejects.toThrow(/pgbouncer=true/);
  });
});
