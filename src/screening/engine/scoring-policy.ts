import { z } from 'zod';
import { parseRiskModel, type RiskModel } from './risk-model';

/**
 * A customer's risk policy (PUT /api/v1/policies/:id), as stored: what it changes of the shipped model, every value
 * within the model file's `policy_bounds`. Absent fields keep the standard model's value.
 */
export interface PolicyDocument {
  name: string;
  description: string | null;
  /** Per category: its severity (direct score before confidence), its weight (× indirect exposure), severe. */
  categories: Record<string, { severity?: number; weight?: number; severe?: boolean }>;
  /** Categories where any counted hit makes the answer HIGH whatever its share (sorted, merged with `severe`). */
  severe_categories: string[];
  /** When an indirect hit counts: its share of the flow and USD amount at least, within max_hops of the subject. */
  indirect: { min_share?: number; min_usd?: number; max_hops?: number };
  /** Lowest score of MEDIUM and of HIGH. */
  levels: { MEDIUM?: number; HIGH?: number };
}

/** The policy version a job, batch, monitor or rescore was scored under: stored with the answer. */
export interface PolicySnapshot {
  id: string;
  version: number;
  document: PolicyDocument;
}

/** The id that names the shipped model explicitly (a job asking for it ignores the account's default). */
export const STANDARD_POLICY_ID = 'standard';

/** What scoring reads beyond the model: the standard rules are the model's own (weight 1, nothing severe). */
export interface ScoringRules {
  /** The model with the policy's severities and level cut-offs in place. */
  model: RiskModel;
  weight(category: string): number;
  isSevere(category: string): boolean;
  minShare: number;
  minUsd: number;
  maxHops: number;
  policy: PolicySnapshot | null;
}

export function standardRules(model: RiskModel): ScoringRules {
  const crawl = model.document?.crawl;
  return {
    model,
    weight: () => 1,
    isSevere: () => false,
    minShare: crawl?.dust_share ?? 0.01,
    minUsd: crawl?.dust_usd ?? 50,
    maxHops: Number.POSITIVE_INFINITY,
    policy: null,
  };
}

/** The policy applied to the model it bounds. The document was validated by policyDocumentSchema(model). */
export function rulesOf(model: RiskModel, policy: PolicySnapshot | null): ScoringRules {
  if (!policy) return standardRules(model);
  const doc = policy.document;
  const base = model.document;
  const medium = doc.levels.MEDIUM ?? model.levelBounds.MEDIUM;
  const high = doc.levels.HIGH ?? model.levelBounds.HIGH;
  const severities = Object.fromEntries(
    Object.entries(doc.categories).flatMap(([c, v]) => (v.severity === undefined ? [] : [[c, v.severity]])),
  );
  const effective = parseRiskModel({
    ...base,
    category_severity: { ...base.category_severity, ...severities },
    levels: { LOW: `0-${medium - 1}`, MEDIUM: `${medium}-${high - 1}`, HIGH: `${high}-100` },
  });
  const severe = new Set(doc.severe_categories);
  return {
    model: effective,
    weight: (category) => doc.categories[category]?.weight ?? 1,
    isSevere: (category) => severe.has(category),
    minShare: doc.indirect.min_share ?? base.crawl.dust_share,
    minUsd: doc.indirect.min_usd ?? base.crawl.dust_usd,
    maxHops: doc.indirect.max_hops ?? Number.POSITIVE_INFINITY,
    policy,
  };
}

const between = (what: string, [lo, hi]: readonly [number, number], integer = false) => {
  const expected = `${integer ? 'an integer' : 'a number'} from ${lo} to ${hi}`;
  const n = z.number({ error: expected }).min(lo, expected).max(hi, expected);
  return (integer ? n.int(expected) : n).meta({ description: `${what}: ${expected}` });
};

/**
 * The body of PUT /api/v1/policies/:id, bounded by the model file's `policy_bounds` (so the dashboard and the API
 * reject the same values, naming the field). Categories are the model's own; unknown fields are refused.
 */
export function policyBodySchema(model: RiskModel) {
  const b = model.document.policy_bounds;
  const categories = Object.keys(model.document.category_severity);
  const category = z
    .string()
    .refine((c) => categories.includes(c), `one of the model's categories: ${categories.join(', ')}`);
  return z
    .object(
      {
        name: z
          .string()
          .trim()
          .min(1, 'a name of 1 to 100 characters')
          .max(100, 'a name of 1 to 100 characters')
          .optional()
          .meta({ description: 'Shown in answers and the dashboard; defaults to the id' }),
        description: z.string().max(1000, 'at most 1000 characters').nullable().optional(),
        categories: z
          .record(
            category,
            z
              .object(
                {
                  severity: between(
                    'Direct score of a high-confidence label of this category',
                    b.severity,
                    true,
                  ).optional(),
                  weight: between('Multiplier of indirect exposure to this category', b.weight).optional(),
                  severe: z
                    .boolean({ error: 'true or false' })
                    .optional()
                    .meta({ description: 'Any counted hit of this category makes the answer HIGH' }),
                },
                { error: 'an object with severity, weight and/or severe' },
              )
              .strict(),
            // Only the record's own type error: a key's refine keeps its message (which categories exist).
            { error: (issue) => (issue.code === 'invalid_type' ? 'an object keyed by category' : undefined) },
          )
          .refine((r) => Object.keys(r).length <= b.max_categories, `at most ${b.max_categories} categories`)
          .optional(),
        severe_categories: z
          .array(category, { error: 'an array of categories' })
          .max(b.max_categories, `at most ${b.max_categories} categories`)
          .optional()
          .meta({ description: 'Shorthand for categories.<c>.severe = true' }),
        indirect: z
          .object(
            {
              min_share: between('Least share of the flow for an indirect hit to count', b.min_share).optional(),
              min_usd: between('Least USD amount for an indirect hit to count', b.min_usd).optional(),
              max_hops: between('Farthest hop an indirect hit counts from', b.max_hops, true).optional(),
            },
            { error: 'an object with min_share, min_usd and/or max_hops' },
          )
          .strict()
          .optional(),
        levels: z
          .object(
            {
              MEDIUM: between('Lowest MEDIUM score', b.level_cutoff, true).optional(),
              HIGH: between('Lowest HIGH score', b.level_cutoff, true).optional(),
            },
            { error: 'an object with MEDIUM and/or HIGH cut-offs' },
          )
          .strict()
          .optional(),
        default: z
          .boolean({ error: 'true or false' })
          .optional()
          .meta({ description: "Makes this policy the account's default" }),
      },
      { error: 'a JSON object' },
    )
    .strict()
    .superRefine((p, ctx) => {
      const medium = p.levels?.MEDIUM ?? model.levelBounds.MEDIUM;
      const high = p.levels?.HIGH ?? model.levelBounds.HIGH;
      if (medium >= high)
        ctx.addIssue({
          code: 'custom',
          path: ['levels', p.levels?.HIGH === undefined ? 'MEDIUM' : 'HIGH'],
          message: `the HIGH cut-off (${high}) must be above the MEDIUM cut-off (${medium})`,
        });
    });
}

export type PolicyBody = z.infer<ReturnType<typeof policyBodySchema>>;

/** The stored document of a validated body: severe flags merged into one sorted list, defaults written out. */
export function policyDocumentOf(id: string, body: PolicyBody): PolicyDocument {
  const categories: PolicyDocument['categories'] = {};
  for (const [c, v] of Object.entries(body.categories ?? {})) categories[c] = { ...v };
  const severe = new Set(body.severe_categories ?? []);
  for (const [c, v] of Object.entries(categories)) {
    if (v.severe) severe.add(c);
    else if (v.severe === false) severe.delete(c);
  }
  for (const c of severe) categories[c] = { ...categories[c], severe: true };
  return {
    name: body.name ?? id,
    description: body.description ?? null,
    categories: Object.fromEntries(Object.entries(categories).sort(([a], [b]) => a.localeCompare(b))),
    severe_categories: [...severe].sort(),
    indirect: { ...body.indirect },
    levels: { ...body.levels },
  };
}

/** A policy id: what PUT /policies/:id accepts (letters, digits, . _ -; not the reserved names). */
export const POLICY_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const RESERVED_POLICY_IDS = [STANDARD_POLICY_ID, 'default'] as const;
