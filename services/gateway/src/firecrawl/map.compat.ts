/**
 * POST /firecrawl/v2/map and /firecrawl/v1/map on the native map: `limit` is the
 * native `max_urls` (default 5000, at most 100000, the native bounds), `sitemap` "include" / "skip"
 * is the native `ignoreSitemap` false / true and "only" (v1 `sitemapOnly`) its `sitemapOnly`; what
 * the native map cannot do (dropping query parameters, a location) is a 400 naming the option. v2 links are
 * `{ url, title?, description? }` objects (the native `linkMetadata`: known for the pages the map
 * fetched), v1 links are strings.
 */
import { ValidationError } from '@wcs/errors';
import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { mapBody } from '../contract/map.request';
import type { GatewayDeps } from '../deps';
import { authOf } from '../middleware/auth.middleware';
import { mapOperation } from '../routes/map.routes';
import { parseBody } from '../validation/parse-body';
import { parseAs } from './field-names.compat';

const common = {
  url: z.string({ error: 'is required and must be a string' }),
  search: z.unknown().optional(),
  includeSubdomains: z.unknown().optional(),
  limit: z.unknown().optional(),
  timeout: z.unknown().optional(),
  location: z.unknown().optional(),
  auditMetadata: z.unknown().optional(),
  origin: z.string().optional(),
  integration: z.string().nullable().optional(),
};

export const firecrawlMapBodyV2 = z.strictObject({
  ...common,
  sitemap: z.enum(['include', 'skip', 'only'], { error: 'must be "include", "skip" or "only"' }).optional(),
  ignoreQueryParameters: z.boolean({ error: 'must be a boolean' }).optional(),
  threatProtection: z.unknown().optional(),
});

export const firecrawlMapBodyV1 = z.strictObject({
  ...common,
  ignoreSitemap: z.unknown().optional(),
  sitemapOnly: z.boolean({ error: 'must be a boolean' }).optional(),
  /** Firecrawl's permission to answer from its index: we always map live, which it allows. */
  useIndex: z.boolean({ error: 'must be a boolean' }).optional(),
});

type Common = { [K in keyof typeof common]?: unknown };

function refuse(field: string, message: string): never {
  throw new ValidationError(`${field}: ${message}`, { details: { field } });
}

/** The options both versions share, checked, and the native body they become. */
function nativeMap(body: Common & { url: string }, ignoreSitemap: unknown) {
  if (body.location !== undefined)
    refuse('location', 'is not supported by this service (maps are not localised)');
  if (body.auditMetadata !== undefined) refuse('auditMetadata', 'is not supported by this service');
  return parseAs(
    mapBody,
    {
      url: body.url,
      ...(body.search !== undefined ? { search: body.search } : {}),
      ...(body.includeSubdomains !== undefined ? { includeSubdomains: body.includeSubdomains } : {}),
      ...(body.limit !== undefined ? { max_urls: body.limit } : {}),
      ...(body.timeout !== undefined ? { timeout: body.timeout } : {}),
      ...(ignoreSitemap !== undefined ? { ignoreSitemap } : {}),
    },
    { max_urls: 'limit' },
  );
}

/** Firecrawl map routes: v2 `{ success, links: [{ url, title?, description? }] }`, v1 `{ success, links: string[] }`. */
export function mapCompatRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.post('/v2/map', async (req: Request, res: Response) => {
    const body = parseBody(firecrawlMapBodyV2, req.body);
    if (body.ignoreQueryParameters === true)
      refuse(
        'ignoreQueryParameters',
        'true is not supported: URLs keep their query (tracking parameters are dropped)',
      );
    if (body.threatProtection !== undefined) refuse('threatProtection', 'is not supported by this service');
    const native = nativeMap(body, body.sitemap === undefined ? undefined : body.sitemap === 'skip');
    const sitemapOnly = body.sitemap === 'only';
    const result = await mapOperation(deps, authOf(res), { ...native, sitemapOnly, linkMetadata: true }, res);
    res.json({
      success: true,
      links: result.pages ?? result.links.map((u) => ({ url: u })),
      ...(result.warning ? { warning: result.warning } : {}),
    });
  });
  router.post('/v1/map', async (req: Request, res: Response) => {
    const body = parseBody(firecrawlMapBodyV1, req.body);
    const native = nativeMap(body, body.ignoreSitemap);
    const result = await mapOperation(
      deps,
      authOf(res),
      { ...native, sitemapOnly: body.sitemapOnly === true },
      res,
    );
    res.json({ success: true, links: result.links, ...(result.warning ? { warning: result.warning } : {}) });
  });
  return router;
}
