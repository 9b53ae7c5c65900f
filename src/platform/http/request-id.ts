import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { Logger } from '../logging/logger';
import { recordRouteTemplate } from './route-template';

/**
 * The HTTP request id ("httpRequestId" in code and logs, `X-Request-Id` on the wire). Not to be confused with
 * a screening job's `request_id`, which is the job's id in the contract.
 */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** What a caller's id may look like: short, and nothing that could break a log line or a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's id when it is sane (a proxy's or a client's, so their logs and ours line up), else a new UUID. */
export function httpRequestIdFrom(incoming: string | undefined): string {
  return incoming !== undefined && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

interface RequestLocals {
  httpRequestId?: string;
  log?: Logger;
}

/**
 * The request's child logger (every line carries its httpRequestId); `fallback` outside the
 * middleware (unit-tested routers).
 */
export function requestLogOf(res: Response, fallback: Logger): Logger {
  return (res.locals as RequestLocals).log ?? fallback;
}

/** The request's httpRequestId, for workflow memos; undefined outside the middleware. */
export function httpRequestIdOf(res: Response): string | undefined {
  return (res.locals as RequestLocals).httpRequestId;
}

/** Told once per answer, with the same figures as the access line (the api's HTTP duration histogram). */
export type AnswerObserver = (method: string, route: string, status: number, seconds: number) => void;

/**
 * Mounted first, so every answer (errors, 404s, webhooks, payment-required 402s) carries `X-Request-Id`. Gives the
 * request a child logger, and when the answer is finished (or the client left) writes one access line
 * (method, route template, status, duration; never the URL, headers or bodies: those carry ids and
 * secrets) and tells `onAnswered`: one timer and one pair of listeners per request serve both.
 */
export function requestIdAndAccessLog(log: Logger, onAnswered: AnswerObserver = () => undefined): RequestHandler {
  return (req, res, next) => {
    const httpRequestId = httpRequestIdFrom(req.get(REQUEST_ID_HEADER));
    res.setHeader(REQUEST_ID_HEADER, httpRequestId);
    const requestLog = log.child({ httpRequestId });
    Object.assign(res.locals as RequestLocals, { httpRequestId, log: requestLog });

    const started = process.hrtime.bigint();
    const templateOf = recordRouteTemplate(req);
    let written = false;
    const writeAccessLine = (finished: boolean) => {
      if (written) return;
      written = true;
      const nanoseconds = Number(process.hrtime.bigint() - started);
      const route = templateOf();
      // A client that hung up before the answer was complete is still a request served (status as set so far).
      onAnswered(req.method, route, res.statusCode, nanoseconds / 1e9);
      requestLog.info('http request', {
        method: req.method,
        route,
        status: res.statusCode,
        durationMs: Math.round(nanoseconds / 1e4) / 100,
        ...(finished ? {} : { aborted: true }),
      });
    };
    res.once('finish', () => writeAccessLine(true));
    res.once('close', () => writeAccessLine(res.writableFinished));
    next();
  };
}
