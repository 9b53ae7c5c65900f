import { Router } from 'express';
import { buildOpenApiDocument, type OpenApiOptions } from './document';

/** GET /api/v1/openapi.json: public; built once per app, served as the same bytes every time. */
export function createOpenApiRouter(options: OpenApiOptions): Router {
  const body = JSON.stringify(buildOpenApiDocument(options));
  const router = Router();
  router.get('/api/v1/openapi.json', (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('application/json').send(body);
  });
  return router;
}
