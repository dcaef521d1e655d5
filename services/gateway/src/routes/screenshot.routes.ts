import type { ScreenshotsRepository, StoredScreenshot } from '@wcs/db';
import { NotFoundError } from '@wcs/errors';
import { type Response, Router } from 'express';
import { authOf } from '../middleware/auth.middleware';

/** `<uuid>` or `<uuid>.png`: the URL `data.screenshot` held before capability URLs, and its id alone. */
const ID_FILE_RE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\.png)?$/i;
/** `<token>.png` (or the token alone): a capability URL (@wcs/db screenshot-token.ts). */
const TOKEN_FILE_RE = /^([A-Za-z0-9_-]{74})(?:\.png)?$/;

/** One answer for every screenshot that cannot be served, whatever the reason: no oracle. */
const NOT_FOUND = 'Screenshot not found (unknown, expired or not yours)';

/**
 * Screenshots of scrapes behind capability URLs (`/v1/screenshots/<token>.png`, the URLs documents
 * hold): served to whoever has the URL, without a key, so they work in an `<img>`, a chat message or
 * a vision model. Mounted before the auth middleware. A malformed, forged, expired or other
 * deployment's token is the same 404 as an unknown one. Any other file name goes on to
 * `screenshotRoutes` (by id, under the key).
 */
export function screenshotCapabilityRoutes(deps: {
  screenshots: Pick<ScreenshotsRepository, 'openByToken'>;
}): Router {
  const router = Router();
  router.get('/v1/screenshots/:file', async (req, res, next) => {
    if (ID_FILE_RE.test(req.params.file)) return next();
    const token = TOKEN_FILE_RE.exec(req.params.file)?.[1];
    const shot = token ? await deps.screenshots.openByToken(token) : undefined;
    if (!shot) throw new NotFoundError(NOT_FOUND);
    // The URL is the credential: opened as a page of its own, it must not leak as a Referer.
    // Embedding it in other sites' pages is the point, hence cross-origin.
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    sendPng(res, shot, 'screenshot.png');
  });
  return router;
}

/**
 * Screenshots by id, under the caller's key (Bearer or dashboard cookie; mounted after
 * the auth middleware): the URLs of documents stored before capability URLs. Unknown, expired,
 * malformed and other accounts' ids are one and the same 404, so an id reveals nothing about
 * whether it exists.
 */
export function screenshotRoutes(deps: { screenshots: Pick<ScreenshotsRepository, 'open'> }): Router {
  const router = Router();

  router.get('/v1/screenshots/:file', async (req, res) => {
    const auth = authOf(res);
    const id = ID_FILE_RE.exec(req.params.file)?.[1]?.toLowerCase();
    const shot = id ? await deps.screenshots.open(auth.accountId, id) : undefined;
    if (!id || !shot) throw new NotFoundError(NOT_FOUND);
    sendPng(res, shot, `${id}.png`);
  });

  return router;
}

/**
 * The PNG with a CSP that forbids everything and nosniff, so it can never be run as a document;
 * cacheable (privately) until it expires.
 */
function sendPng(res: Response, shot: StoredScreenshot, filename: string): void {
  const secondsLeft = Math.max(0, Math.floor((shot.expiresAt.getTime() - Date.now()) / 1000));
  res.status(200);
  res.setHeader('Content-Type', 'image/png');
  res.setHeader('Content-Length', String(shot.png.length));
  res.setHeader('Cache-Control', `private, max-age=${secondsLeft}`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'");
  res.setHeader('Content-Disposition', `inline; filename="${filename}"`);
  res.end(shot.png);
}

/** A request path with the token of a capability URL replaced, for logs and metrics. */
export function redactScreenshotToken(path: string): string {
  return path.replace(/(\/v1\/screenshots\/)[A-Za-z0-9_-]{74}/g, '$1[token]');
}

/** The `:file` route parameter with a token replaced, for logs. */
export function redactScreenshotFile(file: string): string {
  return file.replace(/^[A-Za-z0-9_-]{74}(?=\.png$|$)/, '[token]');
}
