import { z } from 'zod';

/** The request body of POST /dashboard/session (sign-in): checked by the route, described by the OpenAPI document. */
export const signInBody = z.strictObject({
  apiKey: z.string({ error: 'is required and must be a string' }).max(200, 'is too long'),
});
