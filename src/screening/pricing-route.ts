import { Router } from 'express';
import { z } from 'zod';
import { requireScope } from '../identity';
import { COST_RULE, CREDITS_PER_FURTHER_HOP, MINIMUM_CHARGE, RESCORE_PRICE } from './pricing';

export const pricingSchema = z.object({
  analysis: z.object({
    minimum_credits: z.int().min(0).meta({
      description:
        'What a completed job costs at least: the reference data and the target itself (crawl depth 0 and 1)',
    }),
    credits_per_further_hop: z.int().min(0).meta({
      description: 'Added for every exposure hop the crawl reaches beyond the first level. A failed job is free',
    }),
    rule: z.string().meta({ description: 'The rule in words, as the `cost.rule` of every full response states it' }),
  }),
  rescore_credits: z.int().min(0).meta({
    description: 'What a rescore costs (POST /api/v1/kyt/job/{requestId}/rescore), once per job and policy version',
  }),
});
export const pricingResponse = z.object({ success: z.literal(true), data: pricingSchema });

/** The answer, read from the constants the charges are computed with (src/screening/pricing.ts), so it cannot drift. */
export const PRICING: z.infer<typeof pricingSchema> = {
  analysis: {
    minimum_credits: MINIMUM_CHARGE,
    credits_per_further_hop: CREDITS_PER_FURTHER_HOP,
    rule: COST_RULE,
  },
  rescore_credits: RESCORE_PRICE,
};

/** GET /api/v1/kyt/pricing: what screening charges, in credits, for clients to show instead of a copy. */
export function createPricingRouter(): Router {
  const router = Router();
  const body = { success: true, data: PRICING } satisfies z.infer<typeof pricingResponse>;
  router.get('/kyt/pricing', requireScope('read'), (_req, res) => {
    res.json(body);
  });
  return router;
}
