import { ValidationError } from '@wcs/errors';
import { z } from 'zod';

/** Query strings are validated like bodies: a 400 that names the parameter (or the unknown ones). */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.infer<S> {
  const r = schema.safeParse(query);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    const field = issue.keys.join(', ');
    throw new ValidationError(`${field}: unknown query parameter`, { details: { field } });
  }
  const field = issue?.path.join('.') || 'query';
  throw new ValidationError(`${field}: ${issue?.message ?? 'invalid'}`, { details: { field } });
}

/** `?skip&limit` of a listing. */
export function pagingQuery(defaultLimit: number, maxLimit: number) {
  return z.strictObject({
    skip: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit),
  });
}
