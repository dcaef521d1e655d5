import { z } from 'zod';

/** A key's credit limit: a whole number of credits, or null for none. */
const creditLimit = z
  .number({ error: 'must be a whole number of credits or null' })
  .int('must be a whole number of credits')
  .min(0, 'must be 0 or more')
  .max(2_147_483_647, 'at most 2147483647')
  .nullable();

const limits = {
  dailyCreditLimit: creditLimit
    .optional()
    .describe('credits the key may spend per UTC day (resets at 00:00 UTC); null or absent: no limit'),
  monthlyCreditLimit: creditLimit
    .optional()
    .describe(
      'credits the key may spend per UTC calendar month (resets on the 1st, 00:00 UTC); null or absent: no limit',
    ),
};

const name = z.string({ error: 'must be a string' }).trim().max(100, 'at most 100 characters');

/** The request body of POST /v1/keys: checked by the route, described by the OpenAPI document. */
export const keyCreateBody = z.strictObject({ name: name.optional(), ...limits });

/** PATCH /v1/keys/:id: a field left out stays as it is; null removes a limit (or the name). */
export const keyUpdateBody = z
  .strictObject({ name: name.nullable().optional(), ...limits })
  .refine(
    (b) => Object.keys(b).length > 0,
    'send at least one of name, dailyCreditLimit, monthlyCreditLimit',
  );
