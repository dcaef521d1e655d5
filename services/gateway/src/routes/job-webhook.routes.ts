import { NotFoundError } from '@wcs/errors';
import { type Request, type Response, Router } from 'express';
import type { Body, jobWebhookDeliveriesResponse } from '../contract/responses';
import type { GatewayDeps } from '../deps';
import { authOf } from '../middleware/auth.middleware';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The delivery log of a crawl's or batch's webhook: every attempt, oldest first, as
 * monitors show theirs. Unknown jobs, other accounts' jobs and jobs without a webhook are the
 * same 404 (never confirm another account's job).
 */
export function jobWebhookRoutes(deps: GatewayDeps): Router {
  const router = Router();
  const deliveries = (kind: 'crawl' | 'batch') => async (req: Request, res: Response) => {
    const auth = authOf(res);
    const id = String(req.params.id);
    const job =
      UUID.test(id) &&
      (kind === 'crawl'
        ? await deps.crawls.get(auth.accountId, id)
        : await deps.batches.getPage(auth.accountId, id, { statuses: [], skip: 0, limit: 0 }));
    if (!job) throw new NotFoundError(kind === 'crawl' ? 'Crawl not found' : 'Batch not found');
    const rows = await deps.jobWebhooks.deliveries(auth.accountId, id);
    res.json({
      success: true,
      data: rows.map((d) => ({
        type: d.type,
        attempt: d.attempt,
        url: d.url,
        statusCode: d.statusCode,
        durationMs: d.durationMs,
        error: d.error,
        attemptedAt: d.attemptedAt.toISOString(),
      })),
    } satisfies Body<typeof jobWebhookDeliveriesResponse>);
  };
  router.get('/v1/crawl/:id/webhook-deliveries', deliveries('crawl'));
  router.get('/v1/batch/scrape/:id/webhook-deliveries', deliveries('batch'));
  return router;
}
