/** What other features use of screening: its analysis, targets and chains (x402 sells the same analysis). */
export type { ApiType, ScreeningInput } from './workflow-types';
export type { AnalysisResult } from './engine/types';
export type { EngineCapabilities } from './engine/capabilities';
export { configuredCapabilities } from './configured-capabilities';
export { chainCapabilitySchema, type ChainCapability } from './chains/chain-capabilities';
export type { StoredCloses, StoredCloseSeries } from './engine/usd-pricer';
export type { EntityStore } from './reference-data/entities-store';
export {
  ADDRESS_FORMAT_HINT,
  addressFormatHint,
  normalizeAddress,
  normalizeTxid,
  TXID_FORMAT_HINT,
} from './chains/target-format';
export type { BitcoinNetwork } from './chains/bitcoin-address';
/** Stablecoin freeze events (src/lists) name TRON addresses in hex; the reference data in base58. */
export { tronHexToBase58 } from './chains/tron-address';
/** Screening's variables: lists read the chain nodes' settings, batches the screening limits. */
export type { ScreeningConfig } from './config';
export {
  EVM_CHAIN_NAMES,
  EVM_CHAINS,
  isClusteredChain,
  SUPPORTED_CHAINS,
  type Chain,
  type EvmChain,
} from './chains/chain';
/** Each EVM network's chain id and endpoint variable: the stablecoin freeze sync (src/lists) reads each network. */
export { EVM_NETWORKS } from './chains/evm-networks';
export type { AddressTransfer, ChainClient, UtxoTransaction } from './chains/chain-client';
export { screeningResponseSchema } from './job-views';
/** Answer shapes the dashboard renders (types only: nothing of the server enters the browser bundle). */
export type { fullResponseSchema, polledFullJobSchema, submittedJobSchema } from './job-views';
export type { pricingResponse } from './pricing-route';
export {
  holdAndRecord,
  holdAndRecordOnce,
  reserveJob,
  type HoldDeps,
  type HoldRefusal,
  type HoldResult,
} from './hold-and-record';
/** The 402 (and 503) answers of a refused submit: monitors answer a refused create the same way. */
export { refuseUnlessQueued } from './screening-jobs-routes';
export { screeningWorkflowId } from './workflow-ids';
export { createJobStore, type JobStore } from './jobs-store';
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
export { policyReferenceField } from './job-request';
export { loadRiskModel, shippedRiskModel } from './engine/risk-model';
export { ALLOW_CATEGORY, CUSTOM_SOURCE, type CustomLabelLookup } from './engine/custom-labels';
/** Batch screening (src/batches) validates, prices, records and settles its items as single jobs are. */
export {
  parseJobRequest,
  jobRequestSchema,
  type JobLimits,
  type JobRequest,
} from './job-request';
export { jobCost, deepestAffordableDepth, MINIMUM_CHARGE } from './pricing';
export type { JobRecord, NewJob } from './jobs-store';
export { createScreeningWorkflowStarter, type ScreeningWorkflowStarter } from './screening-workflow-starter';
export { queuedJobSweepThresholds } from './queued-job-sweeper';
export { finishedJobCounter } from './metrics/finished-jobs';
export { jobSubmitMetrics } from './metrics/job-submit-metrics';
/** The worker's checks of a workflow's input against what the api recorded (x402 checks its reports with them). */
export { checkFailedJobSettle, checkJobInput, InputNotAuthenticError, requireRequestId } from './authentic-input';
/** The 402 of paid work the account cannot pay for (batches answer a batch none of whose items was held with it). */
export { creditRefusal } from './credit-refusal';
/** Wallet clusters (src/entities implements the port; its routes read labels the way analyses do). */
export type { ClusterMembership, ClusterMerge, ClusterPort, ExpansionBudget } from './engine/cluster-labels';
export { sourceConfidence } from './engine/cluster-labels';
export { createReferenceData, type ReferenceData } from './engine/reference-data';
export { withCustomLabels } from './engine/custom-labels';
export type { RiskModel } from './engine/risk-model';
/** Screening's codes: lists' freeze syncs fail with CHAIN_UNAVAILABLE, batches and x402 answer a job's codes. */
export { SCREENING_ERRORS } from './error-codes';
/** A job ended by another writer than its settle (a batch's recovery of an item) is counted by the same rule. */
export { applyFinalMirrorWrite, releaseAndFailJob } from './job-end-counted';
/** The per-account budget of requests that start paid work (monitors spend from it too). */
export { createJobSubmitLimit } from './job-submit-limit';
/** The entity directory (x402's KYE reports search it as the engine does). */
export { createEntityStore } from './reference-data/entities-store';
