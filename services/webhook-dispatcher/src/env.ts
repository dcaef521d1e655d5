import { baseEnv, loadEnv } from '@wcs/config';
import type { z } from 'zod';

export const envSchema = baseEnv;
export type ServiceEnv = z.infer<typeof envSchema>;

export function loadServiceEnv(env?: NodeJS.ProcessEnv): ServiceEnv {
  return loadEnv(envSchema, env);
}
