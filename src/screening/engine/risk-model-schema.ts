import { z } from 'zod';

/** "0-39": an inclusive score range. */
const range = z.string().regex(/^\d{1,3}-\d{1,3}$/, 'an inclusive range such as "40-69"');
const weight = z.number().finite();
const positiveInt = z.number().int().positive();
const share = z.number().gt(0).lte(1);
/** [lowest, highest], inclusive. */
const bounds = z.tuple([z.number().finite(), z.number().finite()]).refine(([lo, hi]) => lo <= hi, 'lowest ≤ highest');

/**
 * The shape of data/risk/risk-model.json. Validated at load so a typo in the file stops the worker
 * with the path of the bad value instead of scoring with `undefined`.
 */
export const riskModelSchema = z
  .object({
    version: z.string().min(1),
    description: z.string(),
    levels: z.object({ LOW: range, MEDIUM: range, HIGH: range }).strict(),
    direct: z
      .object({
        sanctioned: weight,
        frozen: weight,
        frozen_floor: weight,
        formerly_frozen: weight,
        formerly_sanctioned: weight,
      })
      .strict(),
    confidence_multiplier: z
      .record(z.string(), z.number().min(0).max(1))
      .refine((m) => 'low' in m, 'needs a "low" multiplier (used for unknown confidence)'),
    category_severity: z.record(z.string(), z.number().min(0).max(100)),
    category_priority: z.array(z.string()).min(1),
    behaviour: z
      .object({
        adjustment_range: z
          .tuple([weight, weight])
          .refine(([lo, hi]) => lo <= 0 && hi >= 0, 'lower bound ≤ 0 ≤ upper bound'),
        exchange_categories: z.array(z.string()),
        labelled_exchange: weight,
        unlabelled_contract: weight,
        first_seen_within_hours: z
          .array(z.object({ hours: z.number().positive(), score: weight }).strict())
          .refine((steps) => steps.every((s, i) => i === 0 || s.hours > steps[i - 1]!.hours), 'ascending hours'),
        few_inflows: z.object({ at_most: z.number().int().min(0), score: weight }).strict(),
      })
      .strict(),
    indirect: z
      .object({
        cap: weight,
        saturation_share: share,
        hop_decay: share,
        sanctioned_severity: weight,
        frozen_severity: weight,
        sanctioned_hop1_floor: weight,
        exchange_subject_cap: weight,
      })
      .strict(),
    crawl: z
      .object({
        max_hops: z.object({ KYT: positiveInt, KYA: positiveInt }).strict(),
        fanout: z.array(positiveInt).min(1),
        max_nodes: positiveInt,
        max_requests: positiveInt,
        page_size: positiveInt,
        hub_counterparties: positiveInt,
        dust_usd: z.number().min(0),
        dust_share: z.number().min(0).max(1),
        deadline_share: share,
      })
      .strict(),
    // How labels spread through wallet clusters (src/screening/engine/cluster-labels.ts).
    clusters: z
      .object({
        full_weight_confidence: z.number().positive().max(100),
        source_confidence: z
          .object({
            custom: z.number().min(0).max(100),
            sanctions: z.number().min(0).max(100),
            label_high: z.number().min(0).max(100),
            label_medium: z.number().min(0).max(100),
            label_low: z.number().min(0).max(100),
          })
          .strict(),
        heuristic_weight: z.record(z.string(), z.number().min(0).max(1)),
        expansion_calls: z.number().int().min(0),
        max_members_read: positiveInt,
      })
      .strict(),
    // What a customer policy (PUT /api/v1/policies/:id) may set: [lowest, highest] of each setting.
    policy_bounds: z
      .object({
        severity: bounds,
        weight: bounds,
        min_share: bounds,
        min_usd: bounds,
        max_hops: bounds,
        level_cutoff: bounds,
        max_categories: positiveInt,
      })
      .strict(),
  })
  .strict()
  .superRefine((m, ctx) => {
    // A policy may only raise the dust thresholds: below them the crawl keeps no evidence to score.
    if (m.policy_bounds.min_share[0] < m.crawl.dust_share || m.policy_bounds.min_usd[0] < m.crawl.dust_usd)
      ctx.addIssue({
        code: 'custom',
        path: ['policy_bounds'],
        message: 'min_share and min_usd cannot start below crawl.dust_share and crawl.dust_usd',
      });
    // The three levels must tile 0-100 in order, so every score has exactly one level.
    const [low, medium, high] = [m.levels.LOW, m.levels.MEDIUM, m.levels.HIGH].map(
      (r) => r.split('-').map(Number) as [number, number],
    );
    const tiles =
      low![0] === 0 &&
      medium![0] === low![1] + 1 &&
      high![0] === medium![1] + 1 &&
      high![1] === 100 &&
      medium![0] <= medium![1];
    if (!tiles)
      ctx.addIssue({
        code: 'custom',
        path: ['levels'],
        message: 'LOW, MEDIUM and HIGH must cover 0-100 in order without gaps',
      });
    for (const c of m.category_priority) {
      if (!(c in m.category_severity))
        ctx.addIssue({ code: 'custom', path: ['category_priority'], message: `"${c}" has no category_severity` });
    }
  });

/** The model as shipped: also the `model` section of every full response. */
export type RiskModelDocument = z.infer<typeof riskModelSchema>;
