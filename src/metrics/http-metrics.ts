import type { RequestHandler } from 'express';
import { recordRouteTemplate } from '../api/route-template';
import type { ApiMetrics } from './api-metrics';

// Shared with the access log (src/api/request-id.ts): one route-template tracker per request.
export { UNMATCHED_ROUTE } from '../api/route-template';

/** Times every answer (arrival to the last byte handed to the socket) per method, route template and status. */
export function httpRequestMetrics(metrics: Pick<ApiMetrics, 'httpRequest'>): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const templateOf = recordRouteTemplate(req);
    let recorded = false;
    const record = () => {
      if (recorded) return;
      recorded = true;
      metrics.httpRequest(req.method, templateOf(), res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    };
    res.once('finish', record);
    // A client that hangs up before the answer is complete is still a request served (status as set so far).
    res.once('close', record);
    next();
  };
}
