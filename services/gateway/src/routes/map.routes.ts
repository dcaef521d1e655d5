import { randomUUID } from 'node:crypto';
import type { MapJobResult } from '@wcs/queues';
import { Router } from 'express';
import { z } from 'zod';
import type { AuthContext, GatewayDeps } from '../deps';
import type { CallerResponse } from '../jobs/caller-gone';
import { runChargedJob } from '../jobs/charged-job';
import { authOf } from '../middleware/auth.middleware';
import type { Body, mapResponse } from '../openapi/responses';
import { parseBody } from '../validation/parse-body';
import { checkTargetBeforeCharge } from '../validation/target-check';
import { normalizeTargetUrl } from '../validation/target-url';

export const MAP_DEFAULT_MAX_URLS = 5_000;
export const MAP_DEFAULT_TIMEOUT_MS = 60_000;

const maxUrls = z.number().int().min(1).max(100_000);

export const mapBody = z.strictObject({
  url: z.string({ error: 'is required and must be a string' }),
  max_urls: maxUrls.optional(),
  /** camelCase alias for clients that send it (the spec's name is max_urls, which wins). */
  maxUrls: maxUrls.optional(),
  /** Keep URLs containing this (case-insensitive, URL or link text), ranked; "" means no filter. */
  search: z
    .string({ error: 'must be a string' })
    .max(500)
    .optional()
    .transform((s) => (s?.trim() ? s.trim() : undefined)),
  /** Extensions beyond the spec (documented in the README). */
  includeSubdomains: z.boolean().default(false),
  ignoreSitemap: z.boolean().default(false),
  timeout: z.number().int().min(1_000).max(120_000).default(MAP_DEFAULT_TIMEOUT_MS),
});

export type MapBody = z.infer<typeof mapBody>;

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
  const url = normalizeTargetUrl(body.url, { prependHttps: true });
  await checkTargetBeforeCharge(deps, url);
  const requestId = randomUUID();
  return runChargedJob(deps, {
    accountId: auth.accountId,
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
      ...(result.warning ? { warning: result.warning } : {}),
    } satisfies Body<typeof mapResponse>);
  });
  return router;
}
