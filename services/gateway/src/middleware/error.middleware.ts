import { isPoolTimeout } from '@wcs/db';
import { NotFoundError, RateLimitedError, ServiceUnavailableError, toServiceError } from '@wcs/errors';
import type { Logger } from '@wcs/logger';
import type { NextFunction, Request, Response } from 'express';
import { fromRequestError } from './request-errors';

export function notFoundHandler(req: Request) {
  throw new NotFoundError(`No route for ${req.method} ${req.path}`);
}

/** The one error body shape: `{ success: false, error, code }` (+ `details` when useful). */
export function errorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    // No database connection free within the pool's wait (a burst): retryable, not an internal fault.
    const se =
      fromRequestError(err) ??
      (isPoolTimeout(err)
        ? new ServiceUnavailableError('The service is busy; retry shortly', { cause: err })
        : toServiceError(err));
    // A caller that went away cancelled its own job: not a service failure.
    if (req.socket.destroyed) {
      logger.info({ reqId: req.id, code: se.code }, 'request abandoned by the client');
      return;
    }
    if (se.status >= 500) logger.error({ err, reqId: req.id, code: se.code }, 'request failed');
    if (se instanceof RateLimitedError && !res.getHeader('Retry-After')) {
      res.setHeader('Retry-After', String(se.retryAfterSeconds));
    }
    if (se.code === 'UNAVAILABLE' && !res.getHeader('Retry-After')) res.setHeader('Retry-After', '5');
    // Internal errors never leak their cause to callers.
    const message = se.code === 'INTERNAL' ? 'Internal error' : se.message;
    res.status(se.status).json({
      success: false,
      error: message,
      code: se.code,
      ...(se.details && se.code !== 'INTERNAL' ? { details: se.details } : {}),
    });
  };
}
