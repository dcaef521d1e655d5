import { baseEnv, contentEnv, databaseEnv, envInt, healthEnv, loadEnv, renderEnv } from '@wcs/config';
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
  .extend(renderEnv.shape)
  .extend({
    // For small machines, memory first: each warm-up page leaves the threads' heaps larger until
    // they idle out (the services' 30 put this process ~33 MB higher for that time, 3 ~5 MB); one
    // page still loads the threads' code before the first request needs it.
    CONTENT_POOL_WARM_UP_PAGES: envInt(1, 1).describe(
      contentEnv.shape.CONTENT_POOL_WARM_UP_PAGES.description ?? 'built-in pages per conversion thread',
    ),
  });
export type OneProcessEnv = z.infer<typeof oneProcessEnvSchema>;

export function loadOneProcessEnv(env?: NodeJS.ProcessEnv): OneProcessEnv {
  return loadEnv(oneProcessEnvSchema, env);
}
