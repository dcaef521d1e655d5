/**
 * The native schemas validate every translated body, but a few native fields have other names in
 * Firecrawl's API (`max_urls` is `limit`, `num_results` is `limit`, the extract's `schema` is
 * `formats.0.schema`). `parseAs` runs the native parse and renames the field in a 400's message
 * and details, so the caller reads the name it sent.
 */
import { ServiceError, ValidationError } from '@wcs/errors';
import type { z } from 'zod';
import { parseBody } from '../validation/parse-body';

/** Native top-level field → the caller's name for it (dotted path allowed). */
export type FieldNames = Record<string, string>;

export function parseAs<S extends z.ZodType>(schema: S, body: unknown, names: FieldNames): z.infer<S> {
  try {
    return parseBody(schema, body);
  } catch (err) {
    throw renameFields(err, names);
  }
}

export function renameFields(err: unknown, names: FieldNames): unknown {
  if (!(err instanceof ServiceError) || err.status !== 400) return err;
  const field = typeof err.details?.field === 'string' ? err.details.field : firstField(err.message);
  if (!field) return err;
  const renamed = renamePath(field, names);
  if (renamed === field) return err;
  const message = err.message.startsWith(`${field}:`)
    ? `${renamed}${err.message.slice(field.length)}`
    : err.message;
  const details = err.details ? { ...err.details, field: renamed } : { field: renamed };
  if (err instanceof ValidationError) return new ValidationError(message, { details });
  return new ServiceError(err.code, err.status, message, { details, retryable: err.retryable });
}

function renamePath(path: string, names: FieldNames): string {
  for (const [native, caller] of Object.entries(names)) {
    if (path === native) return caller;
    if (path.startsWith(`${native}.`) || path.startsWith(`${native}[`))
      return caller + path.slice(native.length);
  }
  return path;
}

/** `schema.a.b: message` → `schema.a.b` (errors that carry no details.field, like the schema compiler's). */
function firstField(message: string): string | undefined {
  const m = /^([A-Za-z_$][\w$]*(?:[.[][\w$\]]*)*):\s/.exec(message);
  return m?.[1];
}
