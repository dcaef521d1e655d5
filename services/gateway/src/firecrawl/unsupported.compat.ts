import { Router } from 'express';
import type { GatewayDeps } from '../deps';

/** Firecrawl endpoints this service does not offer (agent, browser, …): a clear 501 naming them. */
export function unsupportedCompatRoutes(_deps: GatewayDeps): Router {
  return Router();
}
