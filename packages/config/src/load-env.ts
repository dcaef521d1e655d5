import { readFileSync } from 'node:fs';
import type { z } from 'zod';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parse a service's environment once, at startup. This is the only place in the repository that
 * reads `process.env`; everything else receives a typed config object.
 */
export function loadEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  // Without zod's JIT: an env schema is parsed once, and compiling its fast path (new Function per
  // object schema) cost more than the parse itself (~20 ms of the one-process start, seven envs).
  const res = schema.safeParse(env, { jitless: true });
  if (!res.success) {
    const lines = res.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return res.data;
}

/** Read one raw variable for tooling that runs before a schema exists (scripts). */
export function rawEnv(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env[name];
}

/**
 * Environment for CLI tools: `.env.local` (written by `scripts/stores.sh` with the resolved
 * DATABASE_URL / REDIS_URL) under the real environment, which wins.
 */
export function envWithLocalFile(file: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = {};
  try {
    const text = readFileSync(file, 'utf8');
    for (const line of text.split('\n')) {
      const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
      if (m?.[1]) merged[m[1]] = m[2]?.replace(/^(['"])(.*)\1$/, '$2');
    }
  } catch {
    // no local file: the environment alone decides
  }
  return { ...merged, ...env };
}
