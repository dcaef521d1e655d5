import { Router } from 'express';
import { buildOpenApiDocument } from './openapi.document';
import { OPERATIONS } from './operations';

/** GET /v1/openapi.json (no auth): the API description, generated from the route schemas. */
export function openApiRoutes(): Router {
  const router = Router();
  const document = buildOpenApiDocument(OPERATIONS);
  router.get('/v1/openapi.json', (_req, res) => {
    res.json(document);
  });
  return router;
}
