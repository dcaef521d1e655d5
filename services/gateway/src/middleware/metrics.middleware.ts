import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram, type Registry } from 'prom-client';

/**
 * Request counts and latencies by route pattern (never the raw path: ids would explode the
 * label set) and status code.
 */
export function metricsMiddleware(registry: Registry) {
  const requests = new Counter({
    name: 'wcs_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'wcs_http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  return (req: Request, res: Response, next: NextFunction) => {
    const end = duration.startTimer();
    res.on('finish', () => {
      const route =
        (req.route?.path as string | undefined) ??
        (res.statusCode === 404 ? 'unmatched' : req.baseUrl || 'other');
      const labels = { method: req.method, route };
      end(labels);
      requests.inc({ ...labels, status: String(res.statusCode) });
    });
    next();
  };
}
