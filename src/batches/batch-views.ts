import { z } from 'zod';
import { BATCH_ITEM_STATUSES, type BatchItem, type BatchSummary } from './batch-store';

const level = z.enum(['LOW', 'MEDIUM', 'HIGH']).nullable();
const score = z.number().min(0).max(100).nullable();
const count = z.int().min(0);

export const batchCountsSchema = z
  .object({ total: count, invalid: count, refused: count, queued: count, completed: count, failed: count })
  .describe('Items by status: queued = accepted and not finished yet');

export const invalidItemSchema = z.object({
  index: z.int().min(0).describe('Its position in `items`'),
  reference_id: z.string().nullable(),
  parameter: z.string().meta({ description: 'The field at fault', examples: ['items[3].address'] }),
  message: z.string(),
});

const batchBase = {
  batch_id: z.uuid(),
  status: z.enum(['running', 'completed']).describe('completed once every accepted item has finished'),
  policy: z
    .object({ id: z.string(), version: z.int().min(1), name: z.string() })
    .nullable()
    .describe('The policy version every item is scored under; null: the standard model'),
  created_at: z.iso.datetime(),
  completed_at: z.iso.datetime().nullable(),
  counts: batchCountsSchema,
  credits: z
    .object({
      held: count.describe('Held now by items not finished'),
      charged: count.describe('Charged for finished items (a failed one costs nothing)'),
    })
    .describe("The batch's credits: each accepted item holds what a single job would"),
};

/** BatchView of the POST answer and GET /kyt/batch/:id: the batch with its invalid items. */
export const batchSchema = z.object({
  ...batchBase,
  invalid_items: z.array(invalidItemSchema).describe('Items refused by validation: listed, never charged'),
});

/** One item with its job's outcome. */
export const batchItemSchema = z.object({
  index: z.int().min(0),
  request_id: z.uuid().nullable().describe('Its screening job (GET /api/v1/kyt/job/{id}); null: invalid or refused'),
  api_type: z.enum(['KYA', 'KYT']).nullable(),
  chain: z.string().nullable(),
  target: z.string().nullable(),
  reference_id: z.string().nullable(),
  status: z.enum(BATCH_ITEM_STATUSES as [string, ...string[]]),
  risk_level: level.describe("The policy's level (the standard model's when no policy)"),
  risk_score: score,
  standard_risk_level: level.describe("The standard model's level of the same evidence"),
  standard_risk_score: score,
  credits_charged: count.nullable().describe('null while queued; 0 when invalid, refused or failed'),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});

const page = z.object({ total: count, limit: z.int().min(1), offset: count, hasMore: z.boolean() });

export const batchResponse = z.object({ success: z.literal(true), data: batchSchema });
export const batchWithItemsResponse = z.object({
  success: z.literal(true),
  data: batchSchema.extend({ items: z.array(batchItemSchema) }),
  pagination: page,
});
export const batchListResponse = z.object({
  success: z.literal(true),
  data: z.array(z.object(batchBase)),
  pagination: page,
});

function policyOf(batch: BatchSummary) {
  const p = batch.policy;
  return p ? { id: p.id, version: p.version, name: p.document.name } : null;
}

export function batchBaseView(batch: BatchSummary) {
  return {
    batch_id: batch.id,
    status: batch.status,
    policy: policyOf(batch),
    created_at: batch.createdAt.toISOString(),
    completed_at: batch.completedAt?.toISOString() ?? null,
    counts: batch.counts,
    credits: batch.credits,
  };
}

export function batchView(batch: BatchSummary, invalid: readonly BatchItem[]): z.input<typeof batchSchema> {
  return {
    ...batchBaseView(batch),
    invalid_items: invalid.map((item) => ({
      index: item.index,
      reference_id: item.referenceId,
      parameter: item.error?.parameter ?? `items[${item.index}]`,
      message: item.error?.message ?? 'invalid item',
    })),
  };
}

export function itemView(item: BatchItem): z.input<typeof batchItemSchema> {
  const unpaid = item.status === 'invalid' || item.status === 'refused' || item.status === 'failed';
  return {
    index: item.index,
    request_id: item.requestId,
    api_type: item.apiType,
    chain: item.chain,
    target: item.target,
    reference_id: item.referenceId,
    status: item.status,
    risk_level: item.riskLevel as z.input<typeof level>,
    risk_score: item.riskScore,
    standard_risk_level: item.standardRiskLevel as z.input<typeof level>,
    standard_risk_score: item.standardRiskScore,
    credits_charged: item.status === 'queued' ? null : (item.creditsCharged ?? (unpaid ? 0 : null)),
    error: item.error ? { code: item.error.code, message: item.error.message } : null,
  };
}
