import { Router, type Response } from 'express';
import type { DashboardAssets } from './bundle';
import { flatError } from '../platform/http/errors';
import { DASHBOARD_PAGE } from './dashboard-page';
import { PLATFORM_ERRORS } from '../platform/errors';

export interface DashboardRouterDeps {
  /** The built bundle; memoised by the caller so the build runs once per process. */
  assets: () => Promise<DashboardAssets>;
  /** Whether Clerk session JWTs are accepted (CLERK_JWT_KEY set): the sign-in form offers them only then. */
  sessionJwtEnabled: boolean;
  /** Origins the page may post forms to besides itself: the configured PayFast checkout (sandbox or live). */
  formTargets: string[];
}

// Everything the page loads comes from this origin; sockets go to the same host. Inline styles stay
// allowed because cytoscape and lightweight-charts size their canvases with style attributes. Forms
// may go to this origin and to the PayFast checkout only (the signed "Buy" form is a real post there).
const contentSecurityPolicy = (formTargets: string[]): string =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "connect-src 'self' ws: wss:",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    `form-action 'self' ${formTargets.join(' ')}`.trim(),
  ].join('; ');

/** Serves the account dashboard at /app from the api process itself (the bundle is built in memory). */
export function createDashboardRouter(deps: DashboardRouterDeps): Router {
  const router = Router();
  const policy = contentSecurityPolicy(deps.formTargets);
  const securityHeaders = (res: Response): Response =>
    res.set({
      'Content-Security-Policy': policy,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });

  router.get('/', (_req, res) => res.redirect(302, '/app'));

  router.get('/app', (_req, res) => {
    securityHeaders(res).set('Cache-Control', 'no-cache').type('html').send(DASHBOARD_PAGE);
  });

  router.get('/app/config.json', (_req, res) => {
    res.set('Cache-Control', 'no-cache').json({ success: true, data: { sessionJwt: deps.sessionJwtEnabled } });
  });

  router.get('/app/assets/:file', async (req, res) => {
    const asset = (await deps.assets()).get(req.params.file);
    if (!asset) throw flatError(PLATFORM_ERRORS.NOT_FOUND, `No dashboard asset ${req.params.file}`);
    // Names do not change with content, so clients revalidate; the bundle is small and served from memory.
    securityHeaders(res).set({ 'Content-Type': asset.contentType, 'Cache-Control': 'no-cache' }).send(asset.body);
  });

  return router;
}
