import { Router } from 'express';
import type { GatewayDeps } from '../deps';

/** Firecrawl-compatible scrape routes (v1 and v2). */
export function scrapeCompatRoutes(_deps: GatewayDeps): Router {
  return Router();
}
