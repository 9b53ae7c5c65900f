/** What other features use of screening: its analysis, targets and chains (x402 sells the same analysis). */
export type { ApiType, ScreeningInput } from './workflow-types';
export type { AnalysisResult } from './engine/types';
export type { EngineCapabilities } from './engine/capabilities';
export type { StoredCloses, StoredCloseSeries } from './engine/usd-pricer';
export type { EntityStore } from './lists/entities-store';
export { ADDRESS_FORMAT_HINT, normalizeAddress, normalizeTxid, TXID_FORMAT_HINT } from './chains/target-format';
export { SUPPORTED_CHAINS, type Chain } from './chains/chain';
export { screeningResponseSchema } from './job-views';
/** Answer shapes the dashboard renders (types only: nothing of the server enters the browser bundle). */
export type { fullResponseSchema, polledFullJobSchema, submittedJobSchema } from './job-views';
export { holdAndRecord, type HoldDeps, type HoldResult } from './hold-and-record';
export { screeningWorkflowId } from './workflow-ids';
export type { JobStore } from './jobs-store';
/** Customer risk policies: the document schema (bounded by the model file), the scoring rules, the resolver port. */
export {
  policyBodySchema,
  policyDocumentOf,
  POLICY_ID_PATTERN,
  RESERVED_POLICY_IDS,
  STANDARD_POLICY_ID,
  type PolicyBody,
  type PolicyDocument,
  type PolicySnapshot,
} from './engine/scoring-policy';
export { PolicyNotFoundError, type PolicyResolver } from './policy-resolver';
export { policyReferenceField } from './screening-request';
export { shippedRiskModel } from './engine/risk-model';
/** Batch screening (src/batches) validates, prices, records and settles its items as single jobs are. */
export {
  parseScreeningRequest,
  screeningRequestSchema,
  type ScreeningLimits,
  type ScreeningRequest,
} from './screening-request';
export { analysisCost, deepestAffordableDepth, MINIMUM_CHARGE } from './pricing';
export type { JobRecord, NewJob } from './jobs-store';
export type { ScreeningWorkflowStarter } from './screening-workflow-starter';
