import type { IncomingMessage } from 'node:http';
import express, { type RequestHandler } from 'express';
import { invalidUtf8Offset } from '../validation/well-formed-text';

/** `type` of the error the parser passes on (mapped to a 400 by `request-errors.ts`). */
export const INVALID_UTF8 = 'entity.utf8.invalid';

/** The error a malformed body raises inside body-parser; `offset` is its first bad byte. */
export class InvalidUtf8BodyError extends Error {
  readonly type = INVALID_UTF8;
  readonly status = 400;
  constructor(readonly offset: number) {
    super(`request body is not valid UTF-8 at byte ${offset}`);
  }
}

/**
 * The JSON body parser of every route that takes one (`/v1`, `/firecrawl`, the dashboard's
 * sign-in). Whatever the content type says, the body is parsed as JSON, so a client that forgets
 * the header still gets a clear validation error instead of an empty body. A UTF-8 body with bytes
 * that are not UTF-8 is refused before decoding, which would put U+FFFD in their place unseen —
 * the same rule as an escaped lone surrogate (`"\ud800"`), which `parseBody` refuses. Bodies in
 * another UTF (a `charset` parameter) decode lone surrogates as such, so that rule catches them.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  return express.json({
    limit: limitBytes,
    type: () => true,
    strict: true,
    verify: (_req: IncomingMessage, _res: unknown, buf: Buffer, encoding: string) => {
      if (!/^utf-?8$/i.test(encoding)) return;
      const offset = invalidUtf8Offset(buf);
      if (offset !== -1) throw new InvalidUtf8BodyError(offset);
    },
  });
}
