import { timingSafeEqual } from 'node:crypto';
import { ForbiddenError, UnauthorizedError } from '@wcs/errors';
import type { NextFunction, Request, Response } from 'express';

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Admin surfaces need ADMIN_TOKEN: `Authorization: Bearer <token>`, or HTTP Basic with the token
 * as password (so a browser can open Bull Board). Without ADMIN_TOKEN they are switched off.
 */
export function adminMiddleware(adminToken: string | undefined) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!adminToken) throw new ForbiddenError('Admin routes are disabled: set ADMIN_TOKEN to enable them');
    const header = req.header('authorization') ?? '';
    const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const basic = /^Basic\s+(\S+)$/i.exec(header)?.[1];
    const password = basic
      ? Buffer.from(basic, 'base64').toString('utf8').split(':').slice(1).join(':')
      : undefined;
    const presented = bearer ?? password;
    if (presented && sameSecret(presented, adminToken)) return next();
    res.setHeader('WWW-Authenticate', 'Basic realm="admin"');
    throw new UnauthorizedError('Admin token required');
  };
}
