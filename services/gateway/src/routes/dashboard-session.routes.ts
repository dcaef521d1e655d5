import { ForbiddenError, InternalError, RateLimitedError, UnauthorizedError } from '@wcs/errors';
import { type Request, Router } from 'express';
import { signInBody } from '../contract/dashboard-session.request';
import type { GatewayDeps } from '../deps';
import { countHit, fixedWindowKey } from '../middleware/fixed-window';
import { jsonBody } from '../middleware/json-body.middleware';
import {
  clearSessionCookie,
  csrfTokenMatches,
  isCrossSite,
  sessionTokenOf,
  setSessionCookie,
} from '../middleware/session-cookie';
import { parseBody } from '../validation/parse-body';

const WINDOW_MS = 60_000;

/** Count one failed sign-in of this client address in the current minute (Redis; 0 when Redis is down). */
async function countFailure(deps: GatewayDeps, req: Request): Promise<number> {
  const scope = deps.settings.dashboard.throttleScope;
  const { key } = fixedWindowKey(`wcs:signin:${scope}:${req.ip ?? 'unknown'}`, WINDOW_MS);
  try {
    return (await countHit(deps.redis, key, WINDOW_MS)).count;
  } catch (err) {
    deps.logger.warn({ err }, 'sign-in limiter unavailable');
    return 0;
  }
}

function sessionOut(s: {
  accountId: string;
  keyId: string;
  keyPrefix: string;
  csrfToken: string;
  expiresAt: Date;
}) {
  return {
    accountId: s.accountId,
    keyId: s.keyId,
    keyPrefix: s.keyPrefix,
    csrfToken: s.csrfToken,
    expiresAt: s.expiresAt.toISOString(),
  };
}

/**
 * The dashboard's sign-in: an API key in a JSON body is exchanged for a server-side
 * session whose random token lives only in an HttpOnly, SameSite=Strict cookie. The key is never
 * logged (bodies are not logged; `apiKey` is redacted anyway) and never put in a URL.
 */
export function dashboardSessionRoutes(deps: GatewayDeps): Router {
  const router = Router();
  const path = '/dashboard/api/session';
  router.use(path, jsonBody(4096));

  router.get(path, async (req, res) => {
    const token = sessionTokenOf(req);
    const session = token ? await deps.sessions.resolve(token) : null;
    if (!session) throw new UnauthorizedError('Not signed in');
    res.setHeader('Cache-Control', 'no-store');
    res.json({ success: true, data: sessionOut(session) });
  });

  router.post(path, async (req, res) => {
    // Login CSRF: another site must not sign this browser in (to the other site's account).
    if (isCrossSite(req)) throw new ForbiddenError('Cross-site sign-in refused');
    const body = parseBody(signInBody, req.body);
    // The throttle counts failures, not attempts: the key is checked first, with the same work
    // (a sha256 and one index probe) whatever the address's count, so the holder of a right key
    // always gets in, even behind an address whose other users (or a guesser) used up its
    // failures. Guessing is not what the throttle stops — a key has ~238 random bits — it makes
    // a client that keeps sending wrong keys back off (429 + Retry-After) instead of being
    // told 401 without end.
    const found = await deps.apiKeys.verify(body.apiKey.trim());
    if (!found) {
      if ((await countFailure(deps, req)) > deps.settings.dashboard.signInAttemptsPerMinute) {
        res.setHeader('Retry-After', String(Math.ceil(WINDOW_MS / 1000)));
        throw new RateLimitedError(60, 'Too many failed sign-ins from this address: wait a minute');
      }
      throw new UnauthorizedError('Invalid API key');
    }
    // A sign-in replaces the session this browser had.
    const previous = sessionTokenOf(req);
    if (previous) await deps.sessions.close(previous);
    const { token } = await deps.sessions.open({
      keyId: found.keyId,
      accountId: found.accountId,
      ttlMs: deps.settings.dashboard.sessionTtlMs,
    });
    const session = await deps.sessions.resolve(token);
    // Only a key revoked in the last few milliseconds gets here.
    if (!session) throw new InternalError('The new session could not be read back');
    setSessionCookie(req, res, token, session.expiresAt);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ success: true, data: sessionOut(session) });
  });

  router.delete(path, async (req, res) => {
    const token = sessionTokenOf(req);
    const session = token ? await deps.sessions.resolve(token) : null;
    // Sign-out is a state change: same CSRF rule as the API. A dead session just clears the cookie.
    if (session && !csrfTokenMatches(req, session.csrfToken)) {
      throw new ForbiddenError('Missing or invalid CSRF token');
    }
    if (token) await deps.sessions.close(token);
    clearSessionCookie(req, res);
    res.json({ success: true });
  });

  return router;
}
