import { Router } from 'express';
import type { GatewayDeps } from '../deps';

/** Firecrawl-compatible extract routes (v1 and v2). */
export function extractCompatRoutes(_deps: GatewayDeps): Router {
  return Router();
}
