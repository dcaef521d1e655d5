import { loadEnv } from '@wcs/config';
import { z } from 'zod';

/**
 * The fault run's own options, parsed once. DATABASE_URL is the server the faults create their
 * databases on (scripts/with-stores.ts sets it); REDIS_URL is ignored: each run starts its own
 * redis-server so flushing a prefix can never touch anyone else's keys.
 */
export const faultOptionsSchema = z.object({
  DATABASE_URL: z.string().min(1).default('postgresql://postgres@127.0.0.1:5432/wcs_test'),
  /** Comma-separated fault names to run (default: all). */
  FAULTS: z
    .string()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
    ),
  /** Print the services' logs of a failing row. */
  FAULTS_VERBOSE: z
    .enum(['0', '1', 'true', 'false', ''])
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});
export type FaultOptions = z.infer<typeof faultOptionsSchema>;

export function loadFaultOptions(env?: NodeJS.ProcessEnv): FaultOptions {
  return loadEnv(faultOptionsSchema, env);
}
