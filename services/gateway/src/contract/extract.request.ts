import { readPageOptionFields } from '@wcs/queues';
import { z } from 'zod';

export const EXTRACT_DEFAULT_TIMEOUT_MS = 90_000;

/** The request body of POST /v1/extract and the Firecrawl-compatible extract: checked by the route, described by the OpenAPI document. */
export const extractBody = z.strictObject({
  url: z.string({ error: 'is required and must be a string' }),
  /** The plain shape (spec section 2): "string" | "number" | "boolean" | [shape] | { key: shape }. */
  schema: z
    .record(z.string(), z.json(), { error: 'must be an object, e.g. { "title": "string" }' })
    .optional(),
  /** Instruction for the model; alone (no schema) the answer is a JSON object the model chose. */
  prompt: z
    .string({ error: 'must be a string' })
    .max(10_000, 'must be at most 10,000 characters')
    .optional()
    .transform((s) => (s?.trim() ? s.trim() : undefined)),
  /** Budget of the whole extraction (fetch + model), ms. Extension beyond the spec. */
  timeout: z.number().int().min(5_000).max(300_000).default(EXTRACT_DEFAULT_TIMEOUT_MS),
  /** Page options of the fetch (extensions; README "Page options"). No formats or cache here. */
  waitFor: z.number().int().min(0).max(30_000).default(0),
  ...readPageOptionFields,
});

export type ExtractBody = z.infer<typeof extractBody>;
