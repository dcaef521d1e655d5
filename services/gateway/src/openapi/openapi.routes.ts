import { Router } from 'express';
import { buildOpenApiDocument } from './openapi.document';
import { OPERATIONS } from './operations';

/**
 * GET /v1/openapi.json (no auth): the API description, generated from the route schemas on the first
 * request and kept (building it at start was ~25 ms of every gateway's time to healthy).
 */
export function openApiRoutes(): Router {
  const router = Router();
  let document: Record<string, unknown> | undefined;
  router.get('/v1/openapi.json', (_req, res) => {
    document ??= buildOpenApiDocument(OPERATIONS);
    res.json(document);
  });
  return router;
}
