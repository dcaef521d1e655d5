/**
 * The Firecrawl-compatible API: `/firecrawl/v2/...` and `/firecrawl/v1/...`, so the
 * official SDKs, the Firecrawl MCP server and LangChain's loader work with
 * `apiUrl = http://<host>:3002/firecrawl`. Same accounts, keys, credits, rate limits and address
 * policy as `/v1`: this layer only translates requests, responses and errors; every operation runs
 * the native one (the `*Operation` functions of `../routes`).
 */
import { Router } from 'express';
import type { GatewayDeps } from '../deps';
import type { ApiKeyCache } from '../middleware/api-key-cache';
import { authMiddleware } from '../middleware/auth.middleware';
import { jsonBody } from '../middleware/json-body.middleware';
import { rateLimitMiddleware } from '../middleware/rate-limit.middleware';
import type { RateLimitView } from '../middleware/rate-limit-view';
import { batchCompatRoutes } from './batch.compat';
import { crawlCompatRoutes } from './crawl.compat';
import { extractCompatRoutes } from './extract.compat';
import { mapCompatRoutes } from './map.compat';
import { parseCompatRoutes } from './parse.compat';
import { scrapeCompatRoutes } from './scrape.compat';
import { searchCompatRoutes } from './search.compat';
import { teamCompatRoutes } from './team.compat';
import { unsupportedCompatRoutes } from './unsupported.compat';

/** Mounted at `/firecrawl`; each compat router registers its own `/v1/...` and `/v2/...` paths. */
export function firecrawlRoutes(
  deps: GatewayDeps,
  keyCache?: ApiKeyCache,
  rateLimits?: RateLimitView,
): Router {
  const router = Router();
  // /v2/parse reads its own body (a file: upload-body.ts), not JSON.
  const json = jsonBody(deps.settings.bodyLimitBytes);
  router.use((req, res, next) => (/^\/v2\/parse\/?$/i.test(req.path) ? next() : json(req, res, next)));
  router.use(authMiddleware(deps, keyCache), rateLimitMiddleware(deps, rateLimits));
  router.use(scrapeCompatRoutes(deps));
  router.use(batchCompatRoutes(deps));
  router.use(crawlCompatRoutes(deps));
  router.use(mapCompatRoutes(deps));
  router.use(searchCompatRoutes(deps));
  router.use(extractCompatRoutes(deps));
  router.use(parseCompatRoutes(deps));
  router.use(teamCompatRoutes(deps));
  router.use(unsupportedCompatRoutes(deps));
  return router;
}
