import { createHash, timingSafeEqual } from 'node:crypto';
import express, { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { z } from 'zod';
import { HistoryEntryError, parseHistoryEntry } from './history-entry';
import type { HistoryStore } from './history-store';
import { HISTORY_WEBHOOK } from './webhook-providers';
import { noteWebhookOutcome } from '../platform/metrics/webhook-delivery-edge';
import type { Logger } from '../platform/logging/logger';
import { errorFields } from '../platform/logging/logger';
import { findUnsafeInput, InvalidUtf8BodyError, requireUtf8 } from '../platform/http/unsafe-input';
import { requestLogOf } from '../platform/http/request-id';

export interface HistoryWebhookDeps {
  history: HistoryStore;
  /** ACTIVITY_WEBHOOK_SECRET; unset means every request is refused. */
  activityWebhookSecret?: string;
  log: Logger;
}

export const historyEntryRecordedResponse = z.object({
  success: z.literal(true),
  id: z.uuid().meta({ description: 'The stored record (the first one for a repeated requestId)' }),
  requestId: z.uuid(),
});
/** This endpoint's error bodies are `{error}` (spec 4.5), with the offending field when there is one. */
export const historyWebhookErrorBody = z.object({ error: z.string(), field: z.string().optional() });

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Constant-time comparison of equal-length digests, so neither content nor length leaks through timing. */
function secretMatches(given: string | undefined, expected: string | undefined): boolean {
  if (!given || !expected) return false;
  return timingSafeEqual(digest(given), digest(expected));
}

/** The contract's bodies for this endpoint are `{error}` (spec 4.5), so parser failures answer in that shape too. */
const bodyErrors: ErrorRequestHandler = (err, _req, res, next) => {
  const type = (err as { type?: string }).type;
  if (type === 'entity.too.large') return void res.status(413).json({ error: 'Request body too large (limit 1 MB)' });
  if (err instanceof InvalidUtf8BodyError)
    return void res.status(400).json({ error: 'The body must be JSON encoded as UTF-8' });
  if (type === 'entity.parse.failed' || type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return void res.status(400).json({ error: 'The body must be a JSON object' });
  }
  next(err);
};

/**
 * POST /api/webhook/activity (spec 4.5): shared secret, validation, then one idempotent insert
 * keyed 'webhook:<userId>:<requestId>' (a retry answers 201 with the first row's id), shared with the
 * posts of the same event-loop turn (history-store.ts); the 201 follows its commit and nothing else.
 * A database error is 500 {error:'Failed to record activity'}: nothing was stored, so the sender may retry.
 */
export function createHistoryWebhookRouter(deps: HistoryWebhookDeps): Router {
  const router = Router();
  const authorize: RequestHandler = (req, res, next) => {
    if (!secretMatches(req.get('x-activity-webhook-secret'), deps.activityWebhookSecret))
      return void res.status(401).json({ error: 'Unauthorized' });
    next();
  };
  const record: RequestHandler = async (req, res) => {
    let entry: ReturnType<typeof parseHistoryEntry>;
    try {
      entry = parseHistoryEntry(req.body);
    } catch (err) {
      if (err instanceof HistoryEntryError)
        return void res.status(400).json({ error: err.message, ...(err.field ? { field: err.field } : {}) });
      throw err;
    }
    // Checked after the contract's own messages: text Postgres cannot store, prototype keys, runaway nesting.
    const unsafe = findUnsafeInput(req.body, 'body');
    if (unsafe)
      return void res
        .status(400)
        .json({ error: `${unsafe.parameter} must be ${unsafe.expected}`, field: unsafe.parameter });
    try {
      const { id, inserted } = await deps.history.record(entry);
      if (!inserted) noteWebhookOutcome(res, 'duplicate');
      res.status(201).json({ success: true, id, requestId: entry.requestId });
    } catch (err) {
      requestLogOf(res, deps.log).error('activity record not stored', {
        requestId: entry.requestId,
        ...errorFields(err),
      });
      res.status(500).json({ error: 'Failed to record activity' });
    }
  };
  router.post(
    HISTORY_WEBHOOK.path,
    authorize,
    express.json({ limit: '1mb', type: () => true, verify: requireUtf8 }),
    bodyErrors,
    record,
  );
  return router;
}
