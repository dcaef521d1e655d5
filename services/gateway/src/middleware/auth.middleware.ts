import { ForbiddenError, UnauthorizedError } from '@wcs/errors';
import type { NextFunction, Request, Response } from 'express';
import type { AuthContext, GatewayDeps } from '../deps';
import type { ApiKeyCache } from './api-key-cache';
import { csrfTokenMatches, isCrossSite, needsCsrfToken, sessionTokenOf } from './session-cookie';

/**
 * `Authorization: Bearer <key>`, or the dashboard's session cookie when no header is
 * sent. Unknown, revoked or missing credentials are 401. A cookie-authenticated call that changes
 * something must carry the session's CSRF token (the cookie is SameSite=Strict too).
 */
export function authMiddleware(
  deps: Pick<GatewayDeps, 'apiKeys' | 'sessions'>,
  /** Answers Bearer keys verified in the last moments without a database round trip. */
  keyCache?: ApiKeyCache,
) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.header('authorization');
    const token = header === undefined ? sessionTokenOf(req) : undefined;
    let auth: AuthContext;
    if (token !== undefined) {
      if (isCrossSite(req)) throw new ForbiddenError('Cross-site request refused');
      const session = await deps.sessions.resolve(token);
      if (!session) throw new UnauthorizedError('Session expired or signed out: sign in again');
      if (needsCsrfToken(req.method) && !csrfTokenMatches(req, session.csrfToken)) {
        throw new ForbiddenError('Missing or invalid CSRF token');
      }
      auth = { accountId: session.accountId, keyId: session.keyId, plan: session.plan };
    } else {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
      if (!match?.[1]) throw new UnauthorizedError('Missing Authorization: Bearer <API_KEY> header');
      const found = await (keyCache ?? deps.apiKeys).verify(match[1]);
      if (!found) throw new UnauthorizedError('Invalid API key');
      auth = { accountId: found.accountId, keyId: found.keyId, plan: found.plan };
    }
    res.locals.auth = auth;
    next();
  };
}

export function authOf(res: Response): AuthContext {
  const auth = res.locals.auth as AuthContext | undefined;
  if (!auth) throw new UnauthorizedError();
  return auth;
}
