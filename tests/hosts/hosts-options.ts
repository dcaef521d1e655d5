import { loadEnv } from '@wcs/config';
import { z } from 'zod';

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true');

/** `pnpm test:hosts`'s own options, parsed once per process. */
export const hostsOptionsSchema = z.object({
  /** Comma-separated fault names to run (default: all). */
  HOSTS_FAULTS: z
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
  /** Not root (no network namespaces): say so and exit 0 instead of failing. */
  HOSTS_SKIP_UNLESS_ROOT: flag,
  /** Print the services' logs of a failing row. */
  HOSTS_VERBOSE: flag,
});
export type HostsOptions = z.infer<typeof hostsOptionsSchema>;

export function loadHostsOptions(env?: NodeJS.ProcessEnv): HostsOptions {
  return loadEnv(hostsOptionsSchema, env);
}
