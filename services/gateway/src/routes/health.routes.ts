import { Router } from 'express';
import type { GatewayDeps } from '../deps';

/**
 * GET /healthz: 200 once PostgreSQL and Redis answer and the services this gateway answers for have
 * started (deps.servicesStarted), 503 otherwise (no auth).
 */
export function healthRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.get('/healthz', async (_req, res) => {
    if (deps.servicesStarted && !deps.servicesStarted()) {
      res.status(503).json({ ok: false, starting: true });
      return;
    }
    const checks = await Promise.allSettled([deps.pingDatabase(), deps.redis.ping()]);
    const [db, redis] = checks.map((c) => c.status === 'fulfilled');
    res.status(db && redis ? 200 : 503).json({ ok: Boolean(db && redis), database: db, redis });
  });
  return router;
}
