import { randomUUID } from 'node:crypto';
import { AddressCache } from '@wcs/net';
import express, { type Express } from 'express';
import { pinoHttp } from 'pino-http';
import { Registry } from 'prom-client';
import type { GatewayDeps } from './deps';
import { firecrawlRoutes } from './firecrawl/firecrawl.routes';
import { ApiKeyCache } from './middleware/api-key-cache';
import { authMiddleware } from './middleware/auth.middleware';
import { errorHandler, notFoundHandler } from './middleware/error.middleware';
import { jsonBody } from './middleware/json-body.middleware';
import { metricsMiddleware } from './middleware/metrics.middleware';
import { rateLimitMiddleware } from './middleware/rate-limit.middleware';
import { RateLimitView } from './middleware/rate-limit-view';
import { screenshotOriginMiddleware } from './middleware/screenshot-origin.middleware';
import { requestClock } from './middleware/server-timing';
import { urlTextMiddleware } from './middleware/url-text.middleware';
import { openApiRoutes } from './openapi/openapi.routes';
import { accountRoutes } from './routes/account.routes';
import { adminRoutes } from './routes/admin.routes';
import { batchRoutes } from './routes/batch.routes';
import { capabilitiesRoutes } from './routes/capabilities.routes';
import { crawlRoutes } from './routes/crawl.routes';
import { dashboardPageRoutes } from './routes/dashboard-page.routes';
import { dashboardSessionRoutes } from './routes/dashboard-session.routes';
import { extractRoutes } from './routes/extract.routes';
import { healthRoutes } from './routes/health.routes';
import { jobListingRoutes } from './routes/job-listing.routes';
import { jobWebhookRoutes } from './routes/job-webhook.routes';
import { keysRoutes } from './routes/keys.routes';
import { mapRoutes } from './routes/map.routes';
import { metricsRoutes } from './routes/metrics.routes';
import { monitorRoutes } from './routes/monitor.routes';
import { parseRoutes } from './routes/parse.routes';
import { scrapeRoutes } from './routes/scrape.routes';
import {
  redactScreenshotFile,
  redactScreenshotToken,
  screenshotCapabilityRoutes,
  screenshotRoutes,
} from './routes/screenshot.routes';
import { searchRoutes } from './routes/search.routes';

/** The HTTP surface. Pure wiring: every dependency comes in through `deps`. */
export function createApp(deps: GatewayDeps): Express {
  // The pre-charge target lookups share recent answers (none is a verdict: each is judged again).
  // Set on the caller's object, not a copy: its later changes (a test's pingDatabase) must reach us.
  deps.targetAddresses ??= new AddressCache();
  const app = express();
  app.disable('x-powered-by');
  // One for both APIs: a key revoked through either is forgotten by both.
  const keyCache = new ApiKeyCache(deps.apiKeys);
  // One view of the rate-limit windows for both APIs, like one gateway.
  const rateLimits = new RateLimitView();
  // X-Forwarded-* count only from the proxies TRUST_PROXY names (default: none).
  app.set('trust proxy', deps.settings.trustProxy);
  app.use(requestClock);
  app.use(
    pinoHttp({
      logger: deps.logger,
      genReqId: (req, res) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url === '/healthz' },
      // A screenshot URL's token is a credential: never in a log line.
      serializers: { req: redactRequest },
    }),
  );
  // One registry per app (tests run several gateways in one process).
  const registry = new Registry();
  app.use(metricsMiddleware(registry));
  if (deps.settings.publicUrl === undefined) app.use(screenshotOriginMiddleware());
  app.use(urlTextMiddleware);
  app.use(healthRoutes(deps));
  app.use(metricsRoutes(deps, registry));
  app.use(openApiRoutes());
  app.use(adminRoutes(deps));
  // The dashboard: its page, and its sign-in exchanging an API key for a session cookie.
  app.use(dashboardPageRoutes());
  app.use(dashboardSessionRoutes(deps));
  // Capability URLs of screenshots need no key: before the auth middleware.
  app.use(screenshotCapabilityRoutes(deps));
  const firecrawl = firecrawlRoutes(deps, keyCache, rateLimits);
  // POST /v1/parse reads its own body (a file: upload-body.ts), not JSON.
  const json = jsonBody(deps.settings.bodyLimitBytes);
  // Matched as the router matches it (case-insensitive, a trailing slash allowed).
  app.use('/v1', (req, res, next) => (/^\/parse\/?$/i.test(req.path) ? next() : json(req, res, next)));
  app.use('/v1', authMiddleware(deps, keyCache), rateLimitMiddleware(deps, rateLimits));
  app.use(scrapeRoutes(deps));
  app.use(parseRoutes(deps));
  app.use(batchRoutes(deps));
  app.use(searchRoutes(deps));
  app.use(crawlRoutes(deps));
  app.use(mapRoutes(deps));
  app.use(extractRoutes(deps));
  app.use(monitorRoutes(deps));
  app.use(accountRoutes(deps));
  app.use(keysRoutes(deps, keyCache));
  app.use(capabilitiesRoutes(deps, deps.deployment, { basePath: '/firecrawl', router: firecrawl }));
  app.use(jobListingRoutes(deps));
  app.use(jobWebhookRoutes(deps));
  app.use(screenshotRoutes(deps));
  // The Firecrawl-compatible API: its own body parser, auth and rate limit.
  app.use('/firecrawl', firecrawl);
  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger));
  return app;
}

/**
 * pino-http's serialized request with screenshot tokens cut out of its URL and route params, and
 * the client's address as Express reads it under TRUST_PROXY (`req.ip`: X-Forwarded-For from the
 * proxies it names) instead of the socket's, which behind a proxy is the proxy's.
 */
function redactRequest(req: {
  url?: string;
  params?: Record<string, string>;
  remoteAddress?: string;
  remotePort?: number;
  raw?: { ip?: string };
}) {
  const client = req.raw?.ip;
  if (client && client !== req.remoteAddress) {
    req.remoteAddress = client;
    delete req.remotePort; // the proxy's port, not the client's
  }
  if (typeof req.url === 'string') req.url = redactScreenshotToken(req.url);
  if (req.params && typeof req.params.file === 'string') {
    req.params = { ...req.params, file: redactScreenshotFile(req.params.file) };
  }
  return req;
}
