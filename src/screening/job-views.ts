import { z } from 'zod';
import { evidenceSignatureSchema } from '../platform/signing/evidence-signature';
import { riskModelSchema } from './engine/risk-model-schema';
import type { JobRecord, PolledJobRecord } from './jobs-store';
import type { CrawlLimits } from './engine/crawl-limits';
import type { FullResponse, ScreeningResponse } from './engine/types';

/** Submit response `data` (spec 2.4). */
export const submittedView = (job: JobRecord) => ({
  request_id: job.requestId,
  status: job.status,
  reference_id: job.referenceId,
  created_at: job.createdAt.getTime(),
});

/**
 * Poll response `data` without its signature, as JSON text: `response` only once completed; a failed job carries
 * `error` instead (our extension). The stored answer is spliced in as Postgres wrote its text, not parsed and
 * encoded again (the spacing of jsonb's text form; a client's JSON parser reads the same values).
 */
export function polledDataText(job: PolledJobRecord): string {
  const head = JSON.stringify({
    request_id: job.requestId,
    status: job.status,
    reference_id: job.referenceId,
    created_at: job.createdAt.getTime(),
    ...(job.completedAt ? { completed_at: job.completedAt.getTime() } : {}),
  }).slice(0, -1);
  if (job.status === 'completed')
    return `${head},"response":${job.answerText ?? 'null'},"credits_charged":${JSON.stringify(job.creditsCharged)}}`;
  if (job.status === 'failed') return `${head},"error":${JSON.stringify(job.error)},"credits_charged":0}`;
  return `${head}}`;
}

// ---- Response schemas (OpenAPI; held to the real answers by test/integration/openapi-responses.test.ts) ----

const epochMs = z.int().min(0).meta({ description: 'Unix time in milliseconds' });
const score = z.number().min(0).max(100);

export const ruleScoresSchema = z.object({
  tag_score: score,
  is_sanctioned: score,
  is_blacklisted: score,
  receive_count: z.number(),
  address_type: z.number(),
  active_duration: z.number(),
});

/** The `response` of a completed job (spec 2.4): a 0-100 score, its level, the reason and every rule's score. */
export const screeningResponseSchema = z.object({
  api_type: z.enum(['KYA', 'KYT']),
  chain: z.string(),
  risk_level: z.enum(['LOW', 'MEDIUM', 'HIGH']),
  risk_score: score,
  response_id: z.uuid(),
  risk_reason: z.string(),
  rule_scores: ruleScoresSchema,
  target_summary: z.object({
    address: z.string(),
    tags: z.array(z.object({ name: z.string(), type: z.string(), display: z.string() })),
    balances: z.array(z.object({ asset: z.string(), amount: z.number(), usd: z.number() })),
  }),
  sanctions_list: z
    .object({ list: z.string(), version: z.int(), issue_date: z.iso.date() })
    .optional()
    .describe('The sanctions list version this answer was screened against (see GET /api/v1/lists)'),
  policy: z
    .object({ id: z.string(), version: z.int().min(1), name: z.string() })
    .optional()
    .describe('The customer policy (and its version) that scored this answer; absent: the standard model scored it'),
  standard: z
    .object({ risk_level: z.enum(['LOW', 'MEDIUM', 'HIGH']), risk_score: score, model_version: z.string() })
    .optional()
    .describe("The standard model's score of the same evidence, beside the policy's (present with `policy`)"),
});

/** One list an answer was screened against, as it was then. */
export const listProvenanceSchema = z.object({
  list: z.string(),
  version: z.int().nullable(),
  issue_date: z.iso.date().nullable(),
  sha256: z.string(),
  loaded_at: z.iso.datetime({ offset: true }),
  source: z.string(),
});

const crawlLimitsSchema = z.object({
  maxHops: z.int(),
  fanout: z.array(z.int()).readonly(),
  maxNodes: z.int(),
  maxRequests: z.int(),
  pageSize: z.int(),
  hubCounterparties: z.int(),
  dustUsd: z.number(),
  dustShare: z.number(),
  deadlineShare: z.number(),
});

/** How a finding on another address of the same wallet cluster reached the screened one (issue 29). */
export const viaClusterSchema = z.object({
  cluster_id: z.string(),
  heuristic: z.string().describe('The weakest heuristic on the chain of merges: common_input or deposit_address'),
  txid: z.string().describe("That merge's transaction"),
  size: z.int().min(1),
  partial: z.boolean(),
  address: z.string().describe("The cluster's address the finding is on"),
  confidence: z
    .number()
    .describe("The label source's confidence on the TagPack scale (100 owns the key, 60 authority)"),
  weight: z
    .number()
    .describe('What the finding is multiplied by: ' + 'min(1, confidence / full weight) × heuristic weight'),
  merges: z.array(z.object({ a: z.string(), b: z.string(), heuristic: z.string(), txid: z.string() })),
});

/** /fullresponse: the response plus every hit, the crawl and its graph, pricing, cost, model and timings. */
export const fullResponseSchema = screeningResponseSchema.extend({
  hits: z.array(
    z.object({
      rule: ruleScoresSchema.keyof(),
      score: z.number(),
      address: z.string(),
      role: z.string(),
      hop: z.int().min(0),
      category: z.string(),
      source: z.string().nullable(),
      detail: z.string(),
      path: z.array(z.string()).optional(),
      direction: z.enum(['in', 'out']).optional(),
      usd: z.number().optional(),
      share: z.number().min(0).max(1).optional(),
      label_id: z.uuid().optional().describe("A hit of the account's own list (source `custom`): the label's id"),
      label_name: z.string().nullable().optional().describe("A hit of the account's own list: the label's name"),
      via_cluster: viaClusterSchema
        .optional()
        .describe(
          'A finding on another address of the same wallet cluster: the cluster and the merges that joined them',
        ),
    }),
  ),
  clusters: z
    .array(
      z.object({
        address: z.string(),
        cluster_id: z.string(),
        size: z.int().min(1),
        partial: z.boolean(),
      }),
    )
    .optional()
    .describe('The wallet clusters of the screened parties and crawled addresses that belong to one (size > 1)'),
  crawl: z.object({
    ran: z.boolean(),
    note: z.string().nullable(),
    complete: z.boolean(),
    depth_planned: z.int().min(0),
    depth_reached: z.int().min(0),
    nodes_visited: z.int().min(0),
    truncated: z.array(z.string()),
    limits: crawlLimitsSchema.optional(),
  }),
  graph: z.object({
    nodes: z.array(
      z.object({
        address: z.string(),
        role: z.string(),
        hop: z.int().min(0),
        labels: z.array(z.string()).optional(),
        share: z.number().optional(),
        stop: z.string().nullable().optional(),
      }),
    ),
    edges: z.array(
      z.object({
        from: z.string().nullable(),
        to: z.string().nullable(),
        asset: z.string(),
        amount: z.string(),
        txids: z.array(z.string()).optional(),
        usd: z.number().nullable().optional(),
        hop: z.int().optional(),
      }),
    ),
  }),
  transaction: z
    .object({
      hash: z.string(),
      status: z.string(),
      block_number: z.string().nullable(),
      timestamp: z.string().nullable(),
    })
    .nullable(),
  pricing: z.array(
    z.object({
      asset: z.string(),
      usd_price: z.number().nullable(),
      as_of: z.string().nullable(),
      source: z.string().nullable(),
      valued_at: z.string(),
    }),
  ),
  cost: z.object({ credits: z.int().min(0), depth_reached: z.int().min(0), rule: z.string() }),
  unpriced_assets: z.array(z.string()),
  model: riskModelSchema,
  policy_document: z
    .looseObject({})
    .optional()
    .describe('The policy version that scored this answer, as stored (GET /api/v1/policies/{id}?version=)'),
  scoring_evidence: z
    .looseObject({ parties: z.array(z.looseObject({})), subject: z.string(), now_seconds: z.number() })
    .optional()
    .describe(
      'What scoring read (parties and their list entries, behaviour facts, listed crawl nodes): rescoring input',
    ),
  lists: z.array(listProvenanceSchema).optional(),
  performance: z.object({
    analysis_ms: z.number(),
    chain_ms: z.number(),
    lists_ms: z.number(),
    crawl_ms: z.number().optional(),
    crawl_requests: z.int().optional(),
    request_budget: z.int().optional(),
    nodes_visited: z.int().optional(),
    cut_short: z.boolean().optional(),
    cache_hits: z.int().optional(),
    cache_misses: z.int().optional(),
    cluster_calls: z
      .int()
      .optional()
      .describe('Chain calls spent growing wallet clusters, against clusters.expansion_calls'),
  }),
});

const jobBase = {
  request_id: z.uuid(),
  reference_id: z.string().nullable(),
  created_at: epochMs,
};

/** Submit `data` (202): the job as queued. */
export const submittedJobSchema = z.object({ ...jobBase, status: z.literal('queued') });

/** A completed job's signature over its `data` as sent, signature aside (src/screening/signed-job-view.ts). */
const completedAnswerSignature = evidenceSignatureSchema
  .extend({
    signed: z.literal('data').meta({
      description: "Copy of the protected header's `signed`: this `data` object without its `signature`",
    }),
  })
  .meta({
    description:
      'Ed25519 signature (detached JWS) over the RFC 8785 canonical JSON of `data` as sent without `signature`; ' +
      "its protected header binds `typ`, `request_id` (this data's), `canon` and `signed` (listed in `crit`). " +
      'Verify it with the keys at /.well-known/jwks.json (docs/api.md, "Verifying an answer")',
  });

/** Poll `data`: `queued`, then `completed` with the response and its cost, or `failed` with why (never charged). */
function polledJobOf<R extends z.ZodType>(response: R) {
  return z.discriminatedUnion('status', [
    z.object({ ...jobBase, status: z.literal('queued') }),
    z.object({
      ...jobBase,
      status: z.literal('completed'),
      completed_at: epochMs,
      response,
      credits_charged: z.int().min(0),
      signature: completedAnswerSignature,
    }),
    z.object({
      ...jobBase,
      status: z.literal('failed'),
      completed_at: epochMs.optional(),
      error: z.object({ code: z.string(), message: z.string() }),
      credits_charged: z.literal(0),
    }),
  ]);
}
export const polledJobSchema = polledJobOf(screeningResponseSchema);
export const polledFullJobSchema = polledJobOf(fullResponseSchema);

/** The deprecated synchronous answer: the response with the job's ids. */
export const syncAnalyzeResultSchema = screeningResponseSchema.extend({
  request_id: z.uuid(),
  reference_id: z.string().nullable(),
});

// The schemas describe exactly the engine's types: a field added to one and not the other fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameResponse: Same<z.output<typeof screeningResponseSchema>, ScreeningResponse> = true;
// Evidence and policy documents are described loosely (their own modules type them exactly).
type Loose = 'scoring_evidence' | 'policy_document';
const sameFull: Same<Omit<z.output<typeof fullResponseSchema>, Loose>, Omit<FullResponse, Loose>> = true;
const sameLimits: Same<z.output<typeof crawlLimitsSchema>, CrawlLimits> = true;
void [sameResponse, sameFull, sameLimits];
