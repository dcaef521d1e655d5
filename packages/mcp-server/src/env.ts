/**
 * The server's whole configuration, read from the environment once at start. This is the only
 * file that reads `process.env` (the package is published on its own, so not through @wcs/config).
 * MCP hosts pass these through the server entry's "env" block.
 */
import { z } from 'zod';

/** Blank values count as unset (hosts often template an empty string). */
function blankToUndefined(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

const EnvSchema = z.object({
  /** The API key. Optional here so the server can start and explain what is missing. */
  SERVICE_API_KEY: z.preprocess(blankToUndefined, z.string().optional()),
  /** The API's base URL; the Node client's default (http://localhost:3002) when unset. */
  SERVICE_BASE_URL: z.preprocess(
    blankToUndefined,
    z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://api.example.com' })
      .optional(),
  ),
});

export interface ServerEnv {
  apiKey: string | undefined;
  baseUrl: string | undefined;
}

/** Parses the environment; throws an Error naming the bad variable. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): ServerEnv {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  return { apiKey: parsed.data.SERVICE_API_KEY, baseUrl: parsed.data.SERVICE_BASE_URL };
}
