import { Router } from 'express';
import type { GatewayDeps } from '../deps';

/** Firecrawl-compatible crawl routes (v1 and v2). */
export function crawlCompatRoutes(_deps: GatewayDeps): Router {
  return Router();
}
