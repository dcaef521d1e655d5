import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import type { Body, scrapeResponse } from '../contract/responses';
import { type ScrapeBody, scrapeBody } from '../contract/scrape.request';
import type { AuthContext, GatewayDeps } from '../deps';
import type { CallerResponse } from '../jobs/caller-gone';
import { type DocumentAnswer, runScrapeJob } from '../jobs/scrape-job';
import { authOf } from '../middleware/auth.middleware';
import { type JobClock, setServerTiming } from '../middleware/server-timing';
import { requireModelForPage } from '../validation/model-check';
import { checkPageOptions } from '../validation/page-options';
import { parseBody } from '../validation/parse-body';
import { checkTargetBeforeCharge } from '../validation/target-check';
import { normalizeTargetUrl } from '../validation/target-url';

/**
 * One scrape (POST /v1/scrape and the Firecrawl-compatible routes): checks the URL and the page
 * options, then runs the billed `scrape` job (runScrapeJob) and returns its document.
 * `requestId` is the job's id and the ledger reference.
 */
export async function scrapeOperation(
  deps: GatewayDeps,
  auth: AuthContext,
  body: ScrapeBody,
  caller?: CallerResponse,
  clock?: JobClock,
): Promise<DocumentAnswer> {
  const url = normalizeTargetUrl(body.url, { prependHttps: true });
  const { options, secrets } = checkPageOptions(body, { engine: body.engine, format: body.format });
  requireModelForPage(deps.deployment, options);
  await checkTargetBeforeCharge(deps, url);
  const job = {
    requestId: randomUUID(),
    timeoutMs: body.timeout ?? deps.settings.scrapeTimeoutMs,
    options,
    secrets,
    fields: {
      url,
      format: body.format ?? 'markdown',
      onlyMainContent: body.onlyMainContent,
      engine: body.engine,
      waitForMs: body.waitFor,
    },
  };
  return runScrapeJob(deps, auth, job, caller, clock);
}

/** POST /v1/scrape: 1 credit, charged up front and refunded if the scrape fails. */
export function scrapeRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.post('/v1/scrape', async (req, res) => {
    const body = parseBody(scrapeBody, req.body);
    const clock: JobClock = {};
    const { data, timings } = await scrapeOperation(deps, authOf(res), body, res, clock);
    setServerTiming(res, clock, timings);
    res.json({ success: true, data } satisfies Body<typeof scrapeResponse>);
  });
  return router;
}
