import { Router } from 'express';
import type { GatewayDeps } from '../deps';

/** Firecrawl-compatible search routes (v1 and v2). */
export function searchCompatRoutes(_deps: GatewayDeps): Router {
  return Router();
}
