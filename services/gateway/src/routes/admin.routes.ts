import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { QUEUE_NAMES } from '@wcs/queues';
import { Router } from 'express';
import type { GatewayDeps } from '../deps';
import { adminMiddleware } from '../middleware/admin.middleware';

/** Bull Board at /admin/queues, behind ADMIN_TOKEN. */
export function adminRoutes(deps: GatewayDeps): Router {
  const router = Router();
  const guard = adminMiddleware(deps.settings.adminToken);
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath('/admin/queues');
  createBullBoard({
    queues: QUEUE_NAMES.map((name) => new BullMQAdapter(deps.producer.queue(name))),
    serverAdapter,
  });
  router.use('/admin/queues', guard, serverAdapter.getRouter());
  router.get('/admin/accounts/:id', guard, async (req, res) => {
    const account = await deps.accounts.get(String(req.params.id));
    if (!account)
      return res.status(404).json({ success: false, error: 'Account not found', code: 'NOT_FOUND' });
    res.json({ success: true, data: account });
  });
  return router;
}
