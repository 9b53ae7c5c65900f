import { z } from 'zod';
import { fullResponseSchema, screeningResponseSchema } from '../job-views';
import { policyIdField } from '../job-request';

/** POST /kyt/job/:id/rescore: the stored job's evidence scored under the policy, the standard score beside it. */
export const rescoreSchema = z.object({
  request_id: z.uuid(),
  policy: screeningResponseSchema.shape.policy
    .unwrap()
    .nullable()
    .describe("The policy version that scored it; null: the standard model ('standard')"),
  standard: screeningResponseSchema.shape.standard.unwrap(),
  risk_level: screeningResponseSchema.shape.risk_level,
  risk_score: screeningResponseSchema.shape.risk_score,
  risk_reason: z.string(),
  rule_scores: screeningResponseSchema.shape.rule_scores,
  hits: fullResponseSchema.shape.hits,
  credits_charged: z.int().min(0).describe('What this rescore cost when it was first asked (a repeat costs nothing)'),
  rescored_at: z.iso.datetime({ offset: true }),
});

export type RescoreView = z.infer<typeof rescoreSchema>;

export const rescoreBody = z
  .object(
    {
      policy_id: policyIdField,
    },
    { error: 'a JSON object' },
  )
  .strict();

export const rescoreResponse = z.object({ success: z.literal(true), data: rescoreSchema });
