import { QUEUE_NAMES } from '@wcs/queues';
import { Router } from 'express';
import { collectDefaultMetrics, Gauge, type Registry } from 'prom-client';
import type { GatewayDeps } from '../deps';
import { adminMiddleware } from '../middleware/admin.middleware';

/** GET /metrics (Prometheus text format), behind ADMIN_TOKEN like every admin surface. */
export function metricsRoutes(deps: GatewayDeps, registry: Registry): Router {
  collectDefaultMetrics({ register: registry, prefix: 'wcs_gateway_' });
  new Gauge({
    name: 'wcs_queue_jobs',
    help: 'Jobs per queue and state (read from Redis at scrape time)',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const name of QUEUE_NAMES) {
        const counts = await deps.producer
          .queue(name)
          .getJobCounts('waiting', 'active', 'delayed', 'failed', 'prioritized')
          .catch(() => null);
        for (const [state, n] of Object.entries(counts ?? {})) this.set({ queue: name, state }, n);
      }
    },
  });
  const router = Router();
  router.get('/metrics', adminMiddleware(deps.settings.adminToken), async (_req, res) => {
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  });
  return router;
}
