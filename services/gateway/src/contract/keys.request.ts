import { z } from 'zod';

/** The request body of POST /v1/keys: checked by the route, described by the OpenAPI document. */
export const keyCreateBody = z.strictObject({
  name: z.string({ error: 'must be a string' }).trim().max(100, 'at most 100 characters').optional(),
});
