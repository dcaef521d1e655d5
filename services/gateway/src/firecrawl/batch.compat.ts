import { Router } from 'express';
import type { GatewayDeps } from '../deps';

/** Firecrawl-compatible batch routes (v1 and v2). */
export function batchCompatRoutes(_deps: GatewayDeps): Router {
  return Router();
}
