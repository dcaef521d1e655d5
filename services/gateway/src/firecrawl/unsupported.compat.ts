/**
 * Firecrawl endpoints this service does not offer: a 501 naming the endpoint, never a
 * silent default or a generic 404, so a client (or its user) learns at once what is missing.
 * Mounted after the real compat routes.
 */
import { NotSupportedError } from '@wcs/errors';
import { Router } from 'express';
import type { GatewayDeps } from '../deps';

/** [methods, Express path, name shown in the message]. `{/*rest}` also matches what is under it. */
const UNSUPPORTED: Array<[string[], string, string]> = [
  [['all'], '/v2/agent{/*rest}', 'agent'],
  [['all'], '/v2/browser{/*rest}', 'browser'],
  [['all'], '/v2/parse/formats', 'parse/formats'],
  [['all'], '/v2/monitor{/*rest}', 'monitor'],
  [['all'], '/v2/search/research{/*rest}', 'search/research'],
  [['all'], '/v2/search/developer{/*rest}', 'search/developer'],
  [['all'], '/v2/feedback{/*rest}', 'feedback'],
  [['all'], '/v2/concurrency-check', 'concurrency-check'],
  [['all'], '/v2/team/queue-status', 'team/queue-status'],
  [['all'], '/v2/team/token-usage{/*rest}', 'team/token-usage'],
  [['all'], '/v2/team/credit-usage/historical', 'team/credit-usage/historical'],
  [['all'], '/v2/scrape/:id/interact', 'scrape interact (browser sessions)'],
  [['post'], '/v2/crawl/params-preview', 'crawl/params-preview'],
  [['all'], '/v1/deep-research{/*rest}', 'deep-research'],
  [['all'], '/v1/llmstxt{/*rest}', 'llmstxt'],
  [['all'], '/v1/team/queue-status', 'team/queue-status'],
  [['all'], '/v1/team/token-usage{/*rest}', 'team/token-usage'],
  [['all'], '/v1/team/credit-usage/historical', 'team/credit-usage/historical'],
];

/** The refused endpoints, as GET /v1/capabilities lists them. */
export const UNSUPPORTED_FIRECRAWL: ReadonlyArray<{ path: string; name: string }> = UNSUPPORTED.map(
  ([, path, name]) => ({ path, name: `${path.slice(1, 3)} ${name}` }),
);

export function unsupportedCompatRoutes(_deps: GatewayDeps): Router {
  const router = Router();
  for (const [methods, path, name] of UNSUPPORTED) {
    const version = path.slice(1, 3);
    for (const method of methods) {
      router[method as 'all' | 'post'](path, () => {
        const endpoint = `Firecrawl ${version} ${name}`;
        throw new NotSupportedError(`${endpoint} is not supported by this service`, {
          details: { endpoint },
        });
      });
    }
  }
  return router;
}
