import express, { Router, type Response } from 'express';
import { currentUser, requireScope } from '../identity';
import { DIGITS, isUuid } from '../platform/http/common-patterns';
import { invalidParameter, notFound, structuredError } from '../platform/http/errors';
import { refuseUnsafeInput } from '../platform/http/refuse-unsafe-input';
import { requireUtf8 } from '../platform/http/unsafe-input';
import { httpRequestIdOf } from '../platform/http/request-id';
import type { RateLimitCheck } from '../platform/rate-limit/middleware';
import { creditRefusal, type EngineCapabilities, type ScreeningConfig } from '../screening';
import { csvHeader, csvRow } from './batch-csv';
import { IdempotencyKeyReusedError, NoItemHeldError, NoValidItemError } from './batch-errors';
import { MAX_BATCH_ITEMS, parseBatchRequest, parseIdempotencyKey } from './batch-request';
import type { BatchService } from './batch-service';
import { BATCH_ITEM_STATUSES, type BatchItemStatus, type BatchStore, type BatchSummary } from './batch-store';
import { batchBaseView, batchView, itemView } from './batch-views';

export interface BatchRouterDeps {
  batchService: BatchService;
  batches: BatchStore;
  capabilities: EngineCapabilities;
  config: Pick<ScreeningConfig, 'CRAWL_TIMEOUT_DEFAULT_MS' | 'CRAWL_TIMEOUT_MAX_MS' | 'BITCOIN_NETWORK'>;
  /** The account's job-submit limit (JOB_SUBMIT_LIMIT_PER_MINUTE): a batch counts as one submit. */
  limitSubmits: RateLimitCheck;
}

const paging = (value: unknown, fallback: number, min: number, max: number, name: string): number => {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !DIGITS.test(value) || Number(value) < min || Number(value) > max) {
    throw invalidParameter(name, `an integer from ${min} to ${max}`);
  }
  return Number(value);
};

function statusFilter(value: unknown): BatchItemStatus | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !BATCH_ITEM_STATUSES.includes(value as BatchItemStatus)) {
    throw invalidParameter('status', `one of ${BATCH_ITEM_STATUSES.join(', ')}`);
  }
  return value as BatchItemStatus;
}

/** Every item of a batch fits in one page: a batch holds at most MAX_BATCH_ITEMS. */
const ALL = { limit: MAX_BATCH_ITEMS, offset: 0 };

/**
 * The submit's own body parser, run after authentication, the scope check and the submit limit (the app's general
 * one, 256 kB, skips this route: see isBatchSubmit): a batch of MAX_BATCH_ITEMS targets, each with a reference id,
 * outgrows the general limit, and a caller without a key never gets a megabyte read and parsed. The parsed body is
 * then refused like any other when it carries what Postgres cannot store (refuseUnsafeInput).
 */
export const batchBodyLimit = `${MAX_BATCH_ITEMS}kb`;
const parseBatchBody = express.json({ limit: batchBodyLimit, verify: requireUtf8 });

/** POST /api/v1/kyt/batch (any letter case, a trailing slash: Express routes it the same): its body is its own. */
export const isBatchSubmit = (req: { method: string; path: string }): boolean =>
  req.method === 'POST' && /^\/api\/v1\/kyt\/batch\/?$/i.test(req.path);

/** What a submit none of whose items was accepted answers: 400 (all invalid) or the 402 of a single job. */
function refusedBatch(err: unknown): unknown {
  if (err instanceof NoValidItemError)
    return invalidParameter(
      err.first.parameter,
      err.first.message.replace(/^expected /, ''),
      `No item of the batch is valid (${err.invalidCount} invalid), so nothing was stored or charged; the first: ` +
        `"${err.first.parameter}": ${err.first.message}`,
    );
  if (err instanceof NoItemHeldError) return creditRefusal({ ...err.refusal, what: 'each item of a batch' });
  if (err instanceof IdempotencyKeyReusedError)
    return structuredError(err.entry, err.message, {
      parameter: 'Idempotency-Key',
      batch_id: err.batchId,
    });
  return err;
}

/** POST /kyt/batch, GET /kyt/batches, GET /kyt/batch/:id (paged items) and its results.csv. */
export function createBatchRouter(deps: BatchRouterDeps): Router {
  const router = Router();

  const ownBatch = async (id: string, res: Response): Promise<BatchSummary> => {
    const batch = isUuid(id) ? await deps.batches.findForUser(id, currentUser(res).id) : null;
    if (!batch) throw notFound('Batch');
    return batch;
  };

  router.post(
    '/kyt/batch',
    requireScope('screening'),
    deps.limitSubmits,
    parseBatchBody,
    refuseUnsafeInput,
    async (req, res) => {
      const key = parseIdempotencyKey(req.get('idempotency-key'));
      const request = parseBatchRequest(
        req.body,
        key,
        {
          defaultCrawlTimeoutMs: deps.config.CRAWL_TIMEOUT_DEFAULT_MS,
          maxCrawlTimeoutMs: deps.config.CRAWL_TIMEOUT_MAX_MS,
          bitcoinNetwork: deps.config.BITCOIN_NETWORK,
        },
        deps.capabilities,
      );
      const submitted = await deps.batchService
        .submit(currentUser(res).id, request, { httpRequestId: httpRequestIdOf(res) })
        .catch((err: unknown) => {
          throw refusedBatch(err);
        });
      const { batch } = submitted;
      const invalid = await deps.batches.items(batch.id, { ...ALL, status: 'invalid' });
      if (submitted.replayed) res.set('Idempotent-Replayed', 'true');
      res
        .status(202)
        .location(`/api/v1/kyt/batch/${batch.id}`)
        .json({ success: true, data: batchView(batch, invalid.items) });
    },
  );

  router.get('/kyt/batches', requireScope('read'), async (req, res) => {
    const limit = paging(req.query.limit, 20, 1, 100, 'limit');
    const offset = paging(req.query.offset, 0, 0, 1_000_000, 'offset');
    const { batches, total } = await deps.batches.listForUser(currentUser(res).id, limit, offset);
    res.json({
      success: true,
      data: batches.map(batchBaseView),
      pagination: { total, limit, offset, hasMore: offset + batches.length < total },
    });
  });

  router.get('/kyt/batch/:batchId', requireScope('read'), async (req, res) => {
    const limit = paging(req.query.limit, 100, 1, MAX_BATCH_ITEMS, 'limit');
    const offset = paging(req.query.offset, 0, 0, 1_000_000, 'offset');
    const status = statusFilter(req.query.status);
    const batch = await ownBatch(req.params.batchId, res);
    const [page, invalid] = await Promise.all([
      deps.batches.items(batch.id, { limit, offset, status }),
      deps.batches.items(batch.id, { ...ALL, status: 'invalid' }),
    ]);
    res.json({
      success: true,
      data: { ...batchView(batch, invalid.items), items: page.items.map(itemView) },
      pagination: { total: page.total, limit, offset, hasMore: offset + page.items.length < page.total },
    });
  });

  router.get('/kyt/batch/:batchId/results.csv', requireScope('read'), async (req, res) => {
    const batch = await ownBatch(req.params.batchId, res);
    const { items } = await deps.batches.items(batch.id, ALL);
    res
      .status(200)
      .type('text/csv; charset=utf-8; header=present')
      .set('Content-Disposition', `attachment; filename="batch-${batch.id}.csv"`)
      .send(csvHeader() + items.map(csvRow).join(''));
  });

  return router;
}
