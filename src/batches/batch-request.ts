import { createHash } from 'node:crypto';
import { z } from 'zod';
import { HttpError, invalidParameter, parseOrThrow } from '../platform/http/errors';
import { canonicalJson } from '../platform/signing/detached-jws';
import {
  type EngineCapabilities,
  parseJobRequest,
  type JobLimits,
  type JobRequest,
  jobRequestSchema,
} from '../screening';

/** The most items one batch may hold. */
export const MAX_BATCH_ITEMS = 1000;

const ITEMS_EXPECTED = `an array of 1 to ${MAX_BATCH_ITEMS} items`;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const IDEMPOTENCY_KEY_EXPECTED = '1 to 255 visible ASCII characters';
/** What an invalid item keeps of what was sent (a target or reference longer than any valid one is cut). */
const KEPT_TEXT = 256;

/** One item as the OpenAPI document describes it: a single job's target fields. */
export function batchItemSchema(limits: Pick<JobLimits, 'maxCrawlTimeoutMs'>) {
  return jobRequestSchema(limits).pick({ address: true, txid: true, chain: true, reference_id: true });
}

/** The body of POST /kyt/batch as documented; items are checked one by one (a bad one does not fail the rest). */
export function batchRequestSchema(limits: Pick<JobLimits, 'maxCrawlTimeoutMs'>) {
  return jobRequestSchema(limits)
    .pick({ crawlTimeout: true, policy_id: true })
    .extend({
      items: z
        .array(batchItemSchema(limits), { error: ITEMS_EXPECTED })
        .min(1, ITEMS_EXPECTED)
        .max(MAX_BATCH_ITEMS, ITEMS_EXPECTED)
        .meta({
          description:
            'The targets, each as a single job takes them. An invalid item does not fail the request: it is listed ' +
            'in invalid_items with its reason and costs nothing',
        }),
    });
}

/** As validated: every item parsed by the single job's parser, so an item means what the same job would. */
function parsingSchema(limits: Pick<JobLimits, 'maxCrawlTimeoutMs'>) {
  return batchRequestSchema(limits).extend({
    items: z.array(z.unknown(), { error: ITEMS_EXPECTED }).min(1, ITEMS_EXPECTED).max(MAX_BATCH_ITEMS, ITEMS_EXPECTED),
  });
}

export type BatchItemRequest =
  | { index: number; valid: true; request: JobRequest }
  | {
      index: number;
      valid: false;
      apiType: 'KYA' | 'KYT' | null;
      chain: string | null;
      target: string | null;
      referenceId: string | null;
      /** The field at fault, e.g. `items[3].address`. */
      parameter: string;
      message: string;
    };

export interface BatchRequest {
  items: BatchItemRequest[];
  /** undefined: the account's default policy. */
  policyId: string | undefined;
  crawlTimeoutMs: number;
  idempotencyKey: string | null;
  /** SHA-256 of the body's RFC 8785 form: a retry with the same key must send the same body. */
  bodySha256: string;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value.slice(0, KEPT_TEXT) : null;

/** The fields of an item the single job's parser reads; the batch-wide ones are refused per item. */
const ITEM_FIELDS = ['address', 'txid', 'chain', 'reference_id', 'referenceId'] as const;
const BATCH_WIDE_FIELDS = ['policy_id', 'crawlTimeout'] as const;

function parseItem(raw: unknown, index: number, limits: JobLimits, capabilities: EngineCapabilities): BatchItemRequest {
  const item = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const invalid = (field: string, message: string): BatchItemRequest => ({
    index,
    valid: false,
    apiType: text(item.address) ? 'KYA' : text(item.txid) ? 'KYT' : null,
    chain: text(item.chain),
    target: text(item.address) ?? text(item.txid),
    referenceId: text(item.reference_id) ?? text(item.referenceId),
    parameter: field ? `items[${index}].${field}` : `items[${index}]`,
    message,
  });
  if (item !== raw) return invalid('', 'expected a JSON object');
  const wide = BATCH_WIDE_FIELDS.find((field) => item[field] !== undefined);
  if (wide) return invalid(wide, `expected no ${wide} on an item: it is set once for the whole batch`);
  let request: JobRequest;
  try {
    request = parseJobRequest(Object.fromEntries(ITEM_FIELDS.map((f) => [f, item[f]])), limits);
  } catch (err) {
    const details = err instanceof HttpError ? (err.body.error as { details?: Record<string, unknown> }) : undefined;
    const parameter = details?.details?.parameter;
    if (typeof parameter !== 'string') throw err;
    return invalid(parameter, `expected ${String(details?.details?.expected)}`);
  }
  if (request.apiType === 'KYT' && !capabilities.hasChainData(request.chain)) {
    return invalid(
      'txid',
      `KYT on ${request.chain} needs a ${request.chain} node, and none is configured on this deployment; KYA ` +
        '(address) screening is available',
    );
  }
  return { index, valid: true, request };
}

/** Validates the Idempotency-Key header: absent is fine, anything but 1-255 visible ASCII characters is a 400. */
export function parseIdempotencyKey(header: string | undefined): string | null {
  if (header === undefined) return null;
  if (!IDEMPOTENCY_KEY.test(header)) throw invalidParameter('Idempotency-Key', IDEMPOTENCY_KEY_EXPECTED);
  return header;
}

/**
 * The batch as asked: the request is refused (400 naming the field) only for what concerns it as a whole (items
 * missing, empty, over the limit, or a bad policy_id / crawlTimeout); each item is judged on its own.
 */
export function parseBatchRequest(
  body: unknown,
  idempotencyKey: string | null,
  limits: JobLimits,
  capabilities: EngineCapabilities,
): BatchRequest {
  const input = parseOrThrow(parsingSchema(limits), body);
  const crawlTimeoutMs = input.crawlTimeout ?? limits.defaultCrawlTimeoutMs;
  return {
    items: input.items.map((raw, index) => {
      const item = parseItem(raw, index, limits, capabilities);
      return item.valid ? { ...item, request: { ...item.request, crawlTimeoutMs } } : item;
    }),
    policyId: input.policy_id,
    crawlTimeoutMs,
    idempotencyKey,
    bodySha256: createHash('sha256').update(canonicalJson(body)).digest('hex'),
  };
}
