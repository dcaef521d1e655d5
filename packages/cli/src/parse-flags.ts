import { ValidationError } from '@wcs/errors';
import type { z } from 'zod';
import type { Flags } from './command.types';

/** Validate a subcommand's flags; the message names the offending flags as typed (`--usd`). */
export function parseFlags<S extends z.ZodType>(schema: S, flags: Flags): z.infer<S> {
  const res = schema.safeParse(flags);
  if (res.success) return res.data;
  const msg = res.error.issues.map((i) => `--${i.path.join('.') || '?'}: ${i.message}`).join('; ');
  throw new ValidationError(msg);
}
