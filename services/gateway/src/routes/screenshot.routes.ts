import type { ScreenshotsRepository } from '@wcs/db';
import { NotFoundError } from '@wcs/errors';
import { Router } from 'express';
import { authOf } from '../middleware/auth.middleware';

/** `<uuid>` or `<uuid>.png`: the URL `data.screenshot` holds, and its id alone. */
const FILE_RE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\.png)?$/i;

/**
 * Screenshots of scrapes (issue 14), served under the caller's key (Bearer or dashboard cookie;
 * mounted after the auth middleware). Unknown, expired, malformed and other accounts' ids are one
 * and the same 404, so an id reveals nothing about whether it exists. The PNG goes out with a
 * CSP that forbids everything and nosniff, so it can never be run as a document.
 */
export function screenshotRoutes(deps: { screenshots: Pick<ScreenshotsRepository, 'open'> }): Router {
  const router = Router();

  router.get('/v1/screenshots/:file', async (req, res) => {
    const auth = authOf(res);
    const id = FILE_RE.exec(req.params.file)?.[1]?.toLowerCase();
    const shot = id ? await deps.screenshots.open(auth.accountId, id) : undefined;
    if (!id || !shot) throw new NotFoundError('Screenshot not found (unknown, expired or not yours)');
    const secondsLeft = Math.max(0, Math.floor((shot.expiresAt.getTime() - Date.now()) / 1000));
    res.status(200);
    res.setHeader('Content-Type', 'image/png');
    res.setHeader('Content-Length', String(shot.png.length));
    res.setHeader('Cache-Control', `private, max-age=${secondsLeft}`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "default-src 'none'");
    res.setHeader('Content-Disposition', `inline; filename="${id}.png"`);
    res.end(shot.png);
  });

  return router;
}
