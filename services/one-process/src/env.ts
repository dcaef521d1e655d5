import {
  baseEnv,
  contentEnv,
  databaseEnv,
  envBool,
  envInt,
  healthEnv,
  loadEnv,
  renderEnv,
} from '@wcs/config';
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
    // For small machines, memory first: no warm-up. Warm threads hold ~45 MB (two threads, one
    // built-in page each: 201 MB idle where none gives 153 MB) until they idle out 30 s later, and
    // only the first pages after a start gain (as after any idle spell, those start the threads).
    CONTENT_POOL_WARM_UP: envBool(false).describe(
      contentEnv.shape.CONTENT_POOL_WARM_UP.description ?? 'warm the conversion threads at start',
    ),
    // When turned on: one page loads the threads' code; each more leaves their heaps larger.
    CONTENT_POOL_WARM_UP_PAGES: envInt(1, 1).describe(
      contentEnv.shape.CONTENT_POOL_WARM_UP_PAGES.description ?? 'built-in pages per conversion thread',
    ),
  });
export type OneProcessEnv = z.infer<typeof oneProcessEnvSchema>;

export function loadOneProcessEnv(env?: NodeJS.ProcessEnv): OneProcessEnv {
  return loadEnv(oneProcessEnvSchema, env);
}
