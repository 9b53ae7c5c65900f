import type { Request } from 'express';

export const UNMATCHED_ROUTE = '<unmatched>';

const joinPaths = (base: string, path: string) => `${base}/${path}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');

const TEMPLATE_OF = Symbol('routeTemplateOf');

/**
 * Remembers the template of the route that handles `req` ("/api/v1/kyt/job/:request_id"), never the
 * raw URL, so a metric label or a log field cannot grow without bound or carry ids. The router assigns
 * `req.route` when a route matches, and only at that moment is `req.baseUrl` the mount path of that route's
 * router: by the time the answer is finished an error may have unwound the routers and reset it. So the
 * assignment itself is intercepted. Requests no route matched (unknown paths, and refusals by middleware
 * that runs before the route, such as authentication) read as <unmatched>.
 *
 * Idempotent: a second call on the same request returns the first tracker (a second defineProperty would
 * silently replace the first one's setter).
 */
export function recordRouteTemplate(req: Request): () => string {
  const tagged = req as Request & { [TEMPLATE_OF]?: () => string };
  const existing = tagged[TEMPLATE_OF];
  if (existing) return existing;
  let route: unknown;
  let template: string | undefined;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: { path?: unknown } | undefined) => {
      route = value;
      const path = value?.path;
      if (typeof path === 'string') template = joinPaths(req.baseUrl, path);
      else if (Array.isArray(path)) template = path.map((p) => joinPaths(req.baseUrl, String(p))).join('|');
    },
  });
  const templateOf = () => template ?? UNMATCHED_ROUTE;
  tagged[TEMPLATE_OF] = templateOf;
  return templateOf;
}
