import { randomUUID } from 'node:crypto';
import { ValidationError } from '@wcs/errors';
import type { MapJobResult } from '@wcs/queues';
import { Router } from 'express';
import { MAP_DEFAULT_MAX_URLS, type MapBody, mapBody } from '../contract/map.request';
import type { Body, mapResponse } from '../contract/responses';
import type { AuthContext, GatewayDeps } from '../deps';
import type { CallerResponse } from '../jobs/caller-gone';
import { runChargedJob } from '../jobs/charged-job';
import { authOf } from '../middleware/auth.middleware';
import { parseBody } from '../validation/parse-body';
import { checkTargetBeforeCharge } from '../validation/target-check';
import { normalizeTargetUrl } from '../validation/target-url';

/**
 * One map (POST /v1/map and the Firecrawl-compatible routes): 1 credit per job, charged up front
 * and refunded if the job fails.
 */
export async function mapOperation(
  deps: GatewayDeps,
  auth: AuthContext,
  body: MapBody,
  caller?: CallerResponse,
): Promise<MapJobResult> {
  if (body.sitemapOnly && body.ignoreSitemap)
    throw new ValidationError('sitemapOnly and ignoreSitemap: give one of them', {
      details: { field: 'sitemapOnly' },
    });
  const url = normalizeTargetUrl(body.url, { prependHttps: true });
  await checkTargetBeforeCharge(deps, url);
  const requestId = randomUUID();
  return runChargedJob(deps, {
    accountId: auth.accountId,
    keyId: auth.keyId,
    requestId,
    cost: 1,
    reason: 'map',
    refundReason: 'map_refund',
    queue: 'map',
    payload: {
      requestId,
      accountId: auth.accountId,
      url,
      maxUrls: body.max_urls ?? body.maxUrls ?? MAP_DEFAULT_MAX_URLS,
      ...(body.search ? { search: body.search } : {}),
      includeSubdomains: body.includeSubdomains,
      ignoreSitemap: body.ignoreSitemap,
      ...(body.linkMetadata ? { linkMetadata: true } : {}),
      ...(body.sitemapOnly ? { sitemapOnly: true } : {}),
      timeoutMs: body.timeout,
    },
    // The worker answers before its budget ends; the margin covers queueing and Redis.
    waitMs: body.timeout + 5_000,
    ...(caller ? { caller } : {}),
  });
}

/**
 * POST /v1/map: 1 credit per job, charged up front and refunded if the job fails. The answer is
 * not wrapped in `data`: `{ success: true, links, total }`.
 */
export function mapRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.post('/v1/map', async (req, res) => {
    const body = parseBody(mapBody, req.body);
    const result = await mapOperation(deps, authOf(res), body, res);
    res.json({
      success: true,
      links: result.links,
      total: result.total,
      ...(body.linkMetadata ? { pages: result.pages ?? result.links.map((url) => ({ url })) } : {}),
      ...(result.warning ? { warning: result.warning } : {}),
    } satisfies Body<typeof mapResponse>);
  });
  return router;
}
