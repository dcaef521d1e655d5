import { ValidationError } from '@wcs/errors';
import type { NextFunction, Request, Response } from 'express';
import { bodyProblem } from '../validation/json-depth';
import { invalidUtf8Offset, LONE_SURROGATE_MESSAGE, NUL_MESSAGE } from '../validation/well-formed-text';

/** Query strings are flat (`a=1&a=2` is an array), so this only bounds a hostile walk. */
const QUERY_DEPTH = 8;

/**
 * Path segments and query parameters reach the database too (ids, filters): a NUL character in
 * them (`%00`; Node refuses a raw one) is the same 400 as in a body, before any route runs. The
 * path is checked undecoded: `%2500` is the text "%00", not a NUL. Escapes in the query that are not
 * UTF-8 (`%FF`) would be decoded to U+FFFD unseen: refused like such bytes in a body.
 */
export function urlTextMiddleware(req: Request, _res: Response, next: NextFunction): void {
  const url = req.originalUrl;
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (/%00/i.test(path)) {
    throw new ValidationError(`path: ${NUL_MESSAGE}`, { details: { field: 'path' } });
  }
  if (q !== -1) {
    const offset = invalidUtf8Offset(queryBytes(url.slice(q + 1)));
    if (offset !== -1) {
      throw new ValidationError(
        `query: not valid UTF-8 once percent-decoded (byte ${offset} starts no valid sequence); send well-formed text`,
        { details: { field: 'query', offset } },
      );
    }
    const problem = bodyProblem(req.query, QUERY_DEPTH);
    if (problem && problem.kind !== 'depth') {
      const message = problem.kind === 'nul' ? NUL_MESSAGE : LONE_SURROGATE_MESSAGE;
      throw new ValidationError(`${problem.path}: ${message}`, { details: { field: problem.path } });
    }
  }
  next();
}

/** The query's bytes with its `%XX` escapes decoded (the URL itself arrives as latin1 bytes). */
function queryBytes(raw: string): Buffer {
  return Buffer.concat(
    raw
      .split(/(%[0-9A-Fa-f]{2})/)
      .map((part, i) =>
        i % 2 === 1 ? Buffer.of(Number.parseInt(part.slice(1), 16)) : Buffer.from(part, 'latin1'),
      ),
  );
}
