import { QUEUE_NAMES } from '@wcs/queues';
import { type RequestHandler, Router } from 'express';
import type { GatewayDeps } from '../deps';
import { adminMiddleware } from '../middleware/admin.middleware';

/** Bull Board at /admin/queues, behind ADMIN_TOKEN. */
export function adminRoutes(deps: GatewayDeps): Router {
  const router = Router();
  const guard = adminMiddleware(deps.settings.adminToken);
  let board: RequestHandler | undefined;
  router.use('/admin/queues', guard, (req, res, next) => {
    board ??= queuesBoard(deps);
    board(req, res, next);
  });
  router.get('/admin/accounts/:id', guard, async (req, res) => {
    const account = await deps.accounts.get(String(req.params.id));
    if (!account)
      return res.status(404).json({ success: false, error: 'Account not found', code: 'NOT_FOUND' });
    res.json({ success: true, data: account });
  });
  return router;
}

/**
 * Bull Board is built on the first admin request: its packages (lodash, its UI server) cost every
 * gateway ~3 MB that most never use (`pnpm bench:footprint`).
 */
function queuesBoard(deps: GatewayDeps): RequestHandler {
  const { createBullBoard } = require('@bull-board/api') as typeof import('@bull-board/api');
  const { BullMQAdapter } =
    require('@bull-board/api/bullMQAdapter') as typeof import('@bull-board/api/bullMQAdapter');
  const { ExpressAdapter } = require('@bull-board/express') as typeof import('@bull-board/express');
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath('/admin/queues');
  createBullBoard({
    queues: QUEUE_NAMES.map((name) => new BullMQAdapter(deps.producer.queue(name))),
    serverAdapter,
  });
  return serverAdapter.getRouter() as RequestHandler;
}
