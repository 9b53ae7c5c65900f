import { Router } from 'express';
import { z } from 'zod';
import { currentUser, requireScope } from '../identity';
import type { HistoryStore } from './history-store';
import { isUuid } from '../platform/http/common-patterns';
import {
  historyEntryDetail,
  historyEntryDetailSchema,
  historyEntrySummary,
  historyEntrySummarySchema,
} from './history-views';
import { invalidParameter, notFound, parseOrThrow } from '../platform/http/errors';
import { DIGITS } from '../platform/http/common-patterns';
import { instantParam } from '../platform/http/date-params';

/** GET /activity query parameters, as validated (and as the OpenAPI document lists them). */
export const historyListQuery = z.object({
  activityType: z.enum(['kyt', 'kya', 'kye'], { error: 'one of kyt, kya, kye' }).optional(),
  riskLevel: z.enum(['low', 'medium', 'high', 'critical'], { error: 'one of low, medium, high, critical' }).optional(),
  blockchain: z.string({ error: 'a chain name' }).trim().toLowerCase().min(1, 'a chain name').max(64).optional(),
  from: instantParam('an ISO 8601 date-time (inclusive)').optional(),
  to: instantParam('an ISO 8601 date-time (exclusive)').optional(),
  errors: z
    .enum(['true', 'false'], { error: 'true or false' })
    .transform((v) => v === 'true')
    .optional(),
  q: z
    .string({ error: 'text to search for' })
    .trim()
    .min(2, 'at least 2 characters')
    .max(200, 'at most 200 characters')
    .optional(),
  limit: z.coerce
    .number({ error: 'an integer from 1 to 100' })
    .int('an integer from 1 to 100')
    .min(1, 'an integer from 1 to 100')
    .max(100, 'an integer from 1 to 100')
    .default(20),
  offset: z.coerce
    .number({ error: 'a non-negative integer' })
    .int('a non-negative integer')
    .min(0, 'a non-negative integer')
    .max(1_000_000)
    .default(0),
});

export const historyListResponse = z.object({
  success: z.literal(true),
  data: z.array(historyEntrySummarySchema),
  pagination: z.object({ total: z.int().min(0), limit: z.int().min(1), offset: z.int().min(0), hasMore: z.boolean() }),
  meta: z.object({ total: z.int().min(0), page: z.int().min(1), limit: z.int().min(1) }),
  timestamp: z.iso.datetime(),
});
export const historyEntryDetailResponse = z.object({ success: z.literal(true), data: historyEntryDetailSchema });

/**
 * z.coerce.number reads "0x10", "1e1" and " 5" as numbers; a paging parameter that is not plain decimal
 * digits is a client bug worth naming rather than a page the caller did not mean.
 */
function requireDecimalDigits(query: Record<string, unknown>, expected: Record<string, string>): void {
  for (const [parameter, what] of Object.entries(expected)) {
    const value = query[parameter];
    if (typeof value === 'string' && !DIGITS.test(value)) throw invalidParameter(parameter, what);
  }
}

/** The signed-in user's history (GET /activity): jobs, history webhook posts and x402 reports. */
export function createHistoryRouter(deps: { history: HistoryStore }): Router {
  const router = Router();

  router.get('/activity', requireScope('read'), async (req, res) => {
    requireDecimalDigits(req.query, { limit: 'an integer from 1 to 100', offset: 'a non-negative integer' });
    const p = parseOrThrow(historyListQuery, req.query);
    const { rows, total } = await deps.history.listForUser(
      currentUser(res).id,
      {
        activityType: p.activityType,
        riskLevel: p.riskLevel,
        blockchain: p.blockchain,
        from: p.from,
        to: p.to,
        errorsOnly: p.errors,
        search: p.q,
      },
      p.limit,
      p.offset,
    );
    res.json({
      success: true,
      data: rows.map(historyEntrySummary),
      pagination: { total, limit: p.limit, offset: p.offset, hasMore: p.offset + rows.length < total },
      meta: { total, page: Math.floor(p.offset / p.limit) + 1, limit: p.limit },
      timestamp: new Date().toISOString(),
    });
  });

  router.get('/activity/:id', requireScope('read'), async (req, res) => {
    const row = isUuid(req.params.id)
      ? await deps.history.findForUser(req.params.id.toLowerCase(), currentUser(res).id)
      : null;
    if (!row) throw notFound('Activity');
    res.json({ success: true, data: historyEntryDetail(row) });
  });

  return router;
}
