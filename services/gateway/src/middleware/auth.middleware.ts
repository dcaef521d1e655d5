import { UnauthorizedError } from '@wcs/errors';
import type { NextFunction, Request, Response } from 'express';
import type { AuthContext, GatewayDeps } from '../deps';

/** `Authorization: Bearer <key>`; unknown, revoked or missing keys are 401. */
export function authMiddleware(deps: Pick<GatewayDeps, 'apiKeys'>) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) throw new UnauthorizedError('Missing Authorization: Bearer <API_KEY> header');
    const found = await deps.apiKeys.verify(match[1]);
    if (!found) throw new UnauthorizedError('Invalid API key');
    const auth: AuthContext = { accountId: found.accountId, keyId: found.keyId, plan: found.plan };
    res.locals.auth = auth;
    next();
  };
}

export function authOf(res: Response): AuthContext {
  const auth = res.locals.auth as AuthContext | undefined;
  if (!auth) throw new UnauthorizedError();
  return auth;
}
