import { timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { Request, Response } from 'express';

/** The dashboard's session cookie: a random token, HttpOnly, SameSite=Strict. */
export const SESSION_COOKIE = 'wcs_session';
/** The header the page sends its session's CSRF token in on every state-changing call. */
export const CSRF_HEADER = 'x-csrf-token';

export function sessionTokenOf(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  return parseCookie(header)[SESSION_COOKIE] || undefined;
}

/**
 * Secure when the request came over TLS, directly or through a proxy that says so. A spoofed
 * X-Forwarded-Proto can only make the cookie stricter, never weaker.
 */
function cameOverTls(req: Request): boolean {
  return req.secure || req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}

export function setSessionCookie(req: Request, res: Response, token: string, expiresAt: Date): void {
  res.append(
    'Set-Cookie',
    stringifySetCookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: cameOverTls(req),
      path: '/',
      expires: expiresAt,
      maxAge: Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000)),
    }),
  );
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.append(
    'Set-Cookie',
    stringifySetCookie(SESSION_COOKIE, '', {
      httpOnly: true,
      sameSite: 'strict',
      secure: cameOverTls(req),
      path: '/',
      expires: new Date(0),
      maxAge: 0,
    }),
  );
}

/** GET and HEAD change nothing; every other method of a cookie-authenticated call needs the token. */
export function needsCsrfToken(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}

export function csrfTokenMatches(req: Request, expected: string): boolean {
  const given = req.header(CSRF_HEADER);
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A browser's own word on where a request came from. Cross-site requests carrying the cookie are
 * refused before anything else (login CSRF on sign-in, defence in depth on every cookie call):
 * `Sec-Fetch-Site` when the browser sends it, else `Origin` against `Host`. Clients that send
 * neither (curl, scripts) are not browsers and carry no ambient cookie.
 */
export function isCrossSite(req: Request): boolean {
  const site = req.header('sec-fetch-site');
  if (site) return site !== 'same-origin' && site !== 'none';
  const origin = req.header('origin');
  if (!origin) return false;
  try {
    return new URL(origin).host !== req.header('host');
  } catch {
    return true;
  }
}
