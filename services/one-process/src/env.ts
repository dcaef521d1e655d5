import { baseEnv, contentEnv, databaseEnv, healthEnv, loadEnv, renderEnv } from '@wcs/config';
import type { z } from 'zod';

/**
 * What the one-process mode reads itself; each service it runs parses its own env as well, from
 * the same environment. The logging and the probe server are the process's (one of each); the
 * content pool, the renderer and the database pool are the ones every service shares.
 */
export const oneProcessEnvSchema = baseEnv
  .extend(databaseEnv.shape)
  .extend(healthEnv.shape)
  .extend(contentEnv.shape)
  .extend(renderEnv.shape);
export type OneProcessEnv = z.infer<typeof oneProcessEnvSchema>;

export function loadOneProcessEnv(env?: NodeJS.ProcessEnv): OneProcessEnv {
  return loadEnv(oneProcessEnvSchema, env);
}
