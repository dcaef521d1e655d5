import { join } from 'node:path';
import { DASHBOARD_DIST_DIR, dashboardBuilt } from '@wcs/dashboard';
import { ServiceUnavailableError } from '@wcs/errors';
import express, { type NextFunction, type Request, type Response, Router } from 'express';

/**
 * The dashboard page's headers: scripts and styles only from this origin (the built page has no
 * inline code), nothing framed, no referrer. Scraped content shown by the page is text, and the
 * CSP makes an injected script inert even if something slipped.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
  next();
}

/**
 * GET /dashboard: the page Vite built into packages/dashboard/dist (`pnpm --filter @wcs/dashboard
 * build`, run by the run and test commands). index.html is never cached (it names the current
 * assets); the hashed assets are immutable.
 */
export function dashboardPageRoutes(): Router {
  const router = Router();
  router.use('/dashboard', securityHeaders);
  router.use(
    '/dashboard/assets',
    express.static(join(DASHBOARD_DIST_DIR, 'assets'), {
      index: false,
      redirect: false,
      dotfiles: 'deny',
      immutable: true,
      maxAge: '365d',
    }),
  );
  router.get(['/dashboard', '/dashboard/'], (_req, res) => {
    if (!dashboardBuilt()) {
      throw new ServiceUnavailableError(
        'The dashboard page is not built: run `pnpm --filter @wcs/dashboard run build`',
      );
    }
    res.setHeader('Cache-Control', 'no-store');
    res.sendFile(join(DASHBOARD_DIST_DIR, 'index.html'));
  });
  return router;
}
