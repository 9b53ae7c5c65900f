import path from 'node:path';
import { Router } from 'express';

/** The files of swagger-ui-dist the page uses; nothing else of the package is served. */
const ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png'] as const;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>chainscreen API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-16x16.png" sizes="16x16">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

/**
 * Scripts only from this origin (the bundle and our initializer, both files); Swagger UI sets inline
 * style attributes and uses data: images, and its requests (the document, "Try it out") go here only.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * GET /docs: Swagger UI rendering /api/v1/openapi.json, from swagger-ui-dist in node_modules (no CDN,
 * no network at run time). Public, like the document.
 */
export function createDocsRouter(options: { swaggerUiDir?: string } = {}): Router {
  const assetsDir =
    options.swaggerUiDir ?? (require('swagger-ui-dist') as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();
  const router = Router();
  router.get('/docs', (_req, res) => {
    res
      .set({
        'Content-Security-Policy': DOCS_CONTENT_SECURITY_POLICY,
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-cache',
      })
      .type('html')
      .send(PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.set('Cache-Control', 'no-cache').sendFile(path.join(__dirname, 'docs-init.js'));
  });
  router.get('/docs/assets/:file', (req, res, next) => {
    const file = req.params.file as (typeof ASSETS)[number];
    if (!ASSETS.includes(file)) return next();
    res.set('Cache-Control', 'public, max-age=86400').sendFile(path.join(assetsDir, file));
  });
  return router;
}
