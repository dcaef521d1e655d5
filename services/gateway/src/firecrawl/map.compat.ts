import { Router } from 'express';
import type { GatewayDeps } from '../deps';

/** Firecrawl-compatible map routes (v1 and v2). */
export function mapCompatRoutes(_deps: GatewayDeps): Router {
  return Router();
}
