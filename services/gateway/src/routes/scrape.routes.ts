import { randomUUID } from 'node:crypto';
import { toServiceError } from '@wcs/errors';
import { engineChoice, outputFormat, type ScrapeJobResult, waitForJob } from '@wcs/queues';
import { Router } from 'express';
import { z } from 'zod';
import type { GatewayDeps } from '../deps';
import { authOf } from '../middleware/auth.middleware';
import { parseBody } from '../validation/parse-body';
import { normalizeTargetUrl } from '../validation/target-url';

export const scrapeBody = z.object({
  url: z.string({ error: 'is required and must be a string' }),
  format: outputFormat.default('markdown'),
  onlyMainContent: z.boolean().default(true),
  /** Extensions beyond the spec (documented in the README). */
  engine: engineChoice.default('auto'),
  waitFor: z.number().int().min(0).max(30_000).default(0),
  timeout: z.number().int().min(1_000).max(120_000).optional(),
});

/** POST /v1/scrape: 1 credit, charged up front and refunded if the scrape fails. */
export function scrapeRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.post('/v1/scrape', async (req, res) => {
    const auth = authOf(res);
    const body = parseBody(scrapeBody, req.body);
    const url = normalizeTargetUrl(body.url, { prependHttps: true });
    const timeoutMs = body.timeout ?? deps.settings.scrapeTimeoutMs;
    const requestId = randomUUID();

    await deps.credits.charge(auth.accountId, 1, { reason: 'scrape', reference: requestId });
    let result: ScrapeJobResult;
    try {
      const job = await deps.producer.enqueue(
        'scrape',
        {
          requestId,
          accountId: auth.accountId,
          url,
          format: body.format,
          onlyMainContent: body.onlyMainContent,
          engine: body.engine,
          waitForMs: body.waitFor,
          timeoutMs,
        },
        { jobId: requestId },
      );
      // Small margin over the job's own budget so the worker's timeout error wins the race.
      result = await waitForJob<ScrapeJobResult>(job, deps.producer.queueEvents('scrape'), timeoutMs + 5_000);
    } catch (err) {
      await deps.credits.credit(auth.accountId, 1, { reason: 'scrape_refund', reference: requestId });
      throw toServiceError(err);
    }
    res.json({ success: true, data: result.data });
  });
  return router;
}
