import { z } from 'zod';
import type { shippedRiskModel } from '../screening';
import type { StoredPolicy } from './policies-store';

type RiskModel = ReturnType<typeof shippedRiskModel>;

const categoryRule = z.object({
  severity: z.int().optional().describe('Direct score of a high-confidence label of this category'),
  weight: z.number().optional().describe('Multiplier of indirect exposure to this category'),
  severe: z.boolean().optional().describe('Any counted hit of this category makes the answer HIGH'),
});
const cutOffs = z.object({ MEDIUM: z.int(), HIGH: z.int() });
const indirectValues = z.object({
  min_share: z.number(),
  min_usd: z.number(),
  max_hops: z.int().nullable().describe("null: no limit beyond the crawl's own depth"),
});

export const policySchema = z.object({
  id: z.string(),
  version: z.int().min(1).describe('Each edit makes a new version; stored answers name the one that scored them'),
  name: z.string(),
  description: z.string().nullable(),
  categories: z.record(z.string(), categoryRule),
  severe_categories: z.array(z.string()),
  indirect: z.object({
    min_share: z.number().optional(),
    min_usd: z.number().optional(),
    max_hops: z.int().optional(),
  }),
  levels: z.object({ MEDIUM: z.int().optional(), HIGH: z.int().optional() }),
  default: z.boolean().describe("Whether it is the account's default policy"),
  effective: z
    .object({ levels: cutOffs, indirect: indirectValues })
    .describe("The values scoring uses: the standard model's where the policy sets none"),
  created_at: z.iso.datetime().describe('When the policy was created'),
  updated_at: z.iso.datetime().describe('When this version was written'),
});

const pair = z.tuple([z.number(), z.number()]);
export const policyBoundsSchema = z.object({
  bounds: z
    .object({
      severity: pair,
      weight: pair,
      min_share: pair,
      min_usd: pair,
      max_hops: pair,
      level_cutoff: pair,
      max_categories: z.int(),
    })
    .describe("What a policy may set: [least, most] of each value (risk-model.json's policy_bounds)"),
  categories: z.record(z.string(), z.object({ severity: z.number() })).describe("The model's categories"),
  levels: cutOffs.describe('The standard cut-offs'),
  indirect: indirectValues.describe('The standard indirect-exposure thresholds'),
});

export const policyResponse = z.object({ success: z.literal(true), data: policySchema });
export const policyListResponse = z.object({
  success: z.literal(true),
  data: z.array(policySchema),
  default_policy_id: z.string().nullable(),
});
export const defaultPolicyResponse = z.object({
  success: z.literal(true),
  data: z.object({
    policy_id: z.string().nullable().describe('null: the standard model'),
    policy: policySchema.nullable(),
  }),
});
export const policyBoundsResponse = z.object({ success: z.literal(true), data: policyBoundsSchema });

/** The standard model's own thresholds: what a policy that sets nothing scores with. */
function standardIndirect(model: RiskModel): z.input<typeof indirectValues> {
  const crawl = model.document.crawl;
  return { min_share: crawl.dust_share, min_usd: crawl.dust_usd, max_hops: null };
}

export function policyView(model: RiskModel, p: StoredPolicy): z.input<typeof policySchema> {
  const doc = p.document;
  const standard = standardIndirect(model);
  return {
    id: p.id,
    version: p.version,
    name: doc.name,
    description: doc.description,
    categories: doc.categories,
    severe_categories: doc.severe_categories,
    indirect: doc.indirect,
    levels: doc.levels,
    default: p.isDefault,
    effective: {
      levels: {
        MEDIUM: doc.levels.MEDIUM ?? model.levelBounds.MEDIUM,
        HIGH: doc.levels.HIGH ?? model.levelBounds.HIGH,
      },
      indirect: {
        min_share: doc.indirect.min_share ?? standard.min_share,
        min_usd: doc.indirect.min_usd ?? standard.min_usd,
        max_hops: doc.indirect.max_hops ?? null,
      },
    },
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

export function defaultPolicyView(model: RiskModel, p: StoredPolicy | null): z.input<typeof defaultPolicyResponse> {
  return { success: true, data: { policy_id: p?.id ?? null, policy: p ? policyView(model, p) : null } };
}

/** The editor's limits and defaults: the bounds, and the standard values a policy starts from. */
export function boundsView(model: RiskModel): z.input<typeof policyBoundsSchema> {
  const doc = model.document;
  return {
    bounds: doc.policy_bounds,
    categories: Object.fromEntries(Object.entries(doc.category_severity).map(([c, severity]) => [c, { severity }])),
    levels: { MEDIUM: model.levelBounds.MEDIUM, HIGH: model.levelBounds.HIGH },
    indirect: standardIndirect(model),
  };
}
