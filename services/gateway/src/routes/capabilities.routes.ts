import {
  CHANGE_JSON_CREDITS,
  engineChoice,
  MAX_ACTIONS,
  MAX_ACTIONS_WAIT_MS,
  outputFormat,
  pageFormat,
  pageOptionFields,
  SUMMARY_CREDITS,
} from '@wcs/queues';
import { type Router as ExpressRouter, Router } from 'express';
import { z } from 'zod';
import { MAX_BATCH_ITEMS } from '../contract/batch.request';
import type { capabilitiesResponse } from '../contract/capabilities.responses';
import { MAX_CRAWL_PAGES } from '../contract/crawl.request';
import { EXTRACT_DEFAULT_TIMEOUT_MS, extractBody } from '../contract/extract.request';
import { MAP_DEFAULT_MAX_URLS, MAP_DEFAULT_TIMEOUT_MS, mapBody } from '../contract/map.request';
import type { Body } from '../contract/responses';
import { scrapeBody } from '../contract/scrape.request';
import { MAX_SEARCH_RESULTS } from '../contract/search.request';
import type { DeploymentFacts, GatewayDeps } from '../deps';
import { REFUSED_FIRECRAWL_OPTIONS } from '../firecrawl/refused-options.compat';
import { UNSUPPORTED_FIRECRAWL } from '../firecrawl/unsupported.compat';
import { authOf } from '../middleware/auth.middleware';
import { EXTRACT_COST } from './extract.routes';
import { CREDITS_PER_SEARCH_RESULT } from './search.routes';

type Capabilities = Body<typeof capabilitiesResponse>['data'];
type Route = { method: string; path: string };

/** Every route an Express router serves (nested routers included), in mounting order. */
export function routesOf(router: ExpressRouter): Route[] {
  type Layer = { route?: { path: unknown; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };
  const out: Route[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route && typeof layer.route.path === 'string') {
        for (const m of Object.keys(layer.route.methods)) {
          if (m !== '_all') out.push({ method: m.toUpperCase(), path: layer.route.path });
        }
      } else if (layer.route && Array.isArray(layer.route.path)) {
        for (const p of layer.route.path as string[]) {
          for (const m of Object.keys(layer.route.methods)) out.push({ method: m.toUpperCase(), path: p });
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk((router as unknown as { stack: Layer[] }).stack);
  return out;
}

/** A number bound of a request field, read from its zod schema (the same one the route checks). */
function maximumOf(schema: z.ZodType, field: string): number {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, { maximum?: number }>;
  };
  const max = json.properties?.[field]?.maximum;
  if (typeof max !== 'number') throw new Error(`capabilities: ${field} has no maximum`);
  return max;
}

/**
 * GET /v1/capabilities (free, any valid key): what this deployment can do and the limits a caller
 * meets, built from the configuration and the request schemas the routes validate with. The
 * static part is computed once; the caller's plan fills in the rate limit.
 */
export function capabilitiesRoutes(
  deps: GatewayDeps,
  facts: DeploymentFacts,
  firecrawl: { basePath: string; router: ExpressRouter },
): Router {
  const router = Router();
  let fixed: Omit<Capabilities, 'limits'> & { limits: Omit<Capabilities['limits'], 'rateLimit'> };
  const build = () => {
    const unsupported = new Set(UNSUPPORTED_FIRECRAWL.map((u) => u.path));
    const seen = new Set<string>();
    const routes = routesOf(firecrawl.router).filter((r) => {
      const key = `${r.method} ${r.path}`;
      if (unsupported.has(r.path) || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    return {
      engines: { choices: [...engineChoice.options], fetch: true, browser: facts.browser },
      documents: {
        types: ['pdf', 'docx'],
        uploadTypes: ['pdf', 'docx', 'html'],
        maxBytes: facts.maxDocumentBytes,
        ocr: { enabled: facts.ocr.enabled, languages: facts.ocr.enabled ? facts.ocr.languages : null },
      },
      extract: facts.extract,
      search: { provider: facts.searchProvider },
      proxies: facts.proxies,
      formats: { format: [...outputFormat.options], formats: [...pageFormat.options] },
      pageOptions: Object.keys(pageOptionFields),
      firecrawl: {
        basePath: firecrawl.basePath,
        routes,
        unsupported: UNSUPPORTED_FIRECRAWL.map((u) => u.name),
        refusedOptions: REFUSED_FIRECRAWL_OPTIONS.map(({ endpoint, option, refused }) => ({
          endpoint,
          option,
          refused,
        })),
      },
      credits: {
        scrape: 1,
        batchPerUrl: 1,
        crawlPerPage: 1,
        map: 1,
        searchPerResult: CREDITS_PER_SEARCH_RESULT,
        extract: EXTRACT_COST,
        parse: 1,
        summary: SUMMARY_CREDITS,
        changeTrackingJson: CHANGE_JSON_CREDITS,
        monitorCheck: 1,
      },
      limits: {
        bodyBytes: deps.settings.bodyLimitBytes,
        pageBytes: facts.maxPageBytes,
        batchUrls: MAX_BATCH_ITEMS,
        crawlPages: MAX_CRAWL_PAGES,
        mapUrlsDefault: MAP_DEFAULT_MAX_URLS,
        searchResults: MAX_SEARCH_RESULTS,
        scrapeTimeoutMsDefault: deps.settings.scrapeTimeoutMs,
        scrapeTimeoutMsMax: maximumOf(scrapeBody, 'timeout'),
        waitForMsMax: maximumOf(scrapeBody, 'waitFor'),
        searchTimeoutMsDefault: deps.search.timeoutMs,
        mapTimeoutMsDefault: MAP_DEFAULT_TIMEOUT_MS,
        mapTimeoutMsMax: maximumOf(mapBody, 'timeout'),
        extractTimeoutMsDefault: EXTRACT_DEFAULT_TIMEOUT_MS,
        extractTimeoutMsMax: maximumOf(extractBody, 'timeout'),
        batchItemTimeoutMs: facts.batchItemTimeoutMs,
        crawlPageTimeoutMs: facts.crawlPageTimeoutMs,
        actions: MAX_ACTIONS,
        actionsWaitMsMax: MAX_ACTIONS_WAIT_MS,
        activeKeysPerAccount: deps.settings.maxActiveKeysPerAccount,
      },
    };
  };

  router.get('/v1/capabilities', (_req, res) => {
    const auth = authOf(res);
    fixed ??= build();
    const data: Capabilities = {
      ...fixed,
      limits: {
        ...fixed.limits,
        rateLimit: {
          plan: auth.plan,
          requests: deps.settings.rateLimits[auth.plan],
          windowSeconds: deps.settings.rateLimitWindowSeconds,
        },
      },
    };
    res.json({ success: true, data } satisfies Body<typeof capabilitiesResponse>);
  });
  return router;
}
