import path from 'node:path';
import { apiKeysEnv, databaseEnv, envWithLocalFile, loadEnv } from '@wcs/config';
import { z } from 'zod';

/** The repository root, where scripts/stores.sh writes `.env.local`. */
const REPO_ROOT = path.resolve(__dirname, '../../..');

const cliEnv = z
  .object({
    DATABASE_URL: z
      .string({ error: 'DATABASE_URL is not set (environment or .env.local)' })
      .min(1, 'DATABASE_URL is required (postgresql://…)'),
    DATABASE_PREPARED_STATEMENTS: databaseEnv.shape.DATABASE_PREPARED_STATEMENTS,
  })
  // `keys create` holds the same cap as POST /v1/keys.
  .extend(apiKeysEnv.shape);

export type CliEnv = z.infer<typeof cliEnv>;

export function loadCliEnv(): CliEnv {
  return loadEnv(cliEnv, envWithLocalFile(path.join(REPO_ROOT, '.env.local')));
}
