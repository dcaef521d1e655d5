import { ValidationError } from '@wcs/errors';
import type { z } from 'zod';

/** Validate a JSON body; the error names the first offending field (`urls.3: Invalid URL`). */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError('Request body must be a JSON object (Content-Type: application/json)');
  }
  const res = schema.safeParse(body);
  if (res.success) return res.data;
  const issue = res.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : 'body';
  throw new ValidationError(`${field}: ${issue?.message ?? 'invalid'}`, {
    details: {
      field,
      issues: res.error.issues.slice(0, 10).map((i) => ({ path: i.path.join('.'), message: i.message })),
    },
  });
}
