import { Router } from 'express';
import type { GatewayDeps } from '../deps';

/** Firecrawl-compatible team routes (v1 and v2). */
export function teamCompatRoutes(_deps: GatewayDeps): Router {
  return Router();
}
