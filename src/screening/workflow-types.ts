/**
 * Types shared by workflows, activities and the API. The one runtime import is the EVM network names (chain.ts,
 * pure data): the freeze sync workflow (src/lists) checks its input against them, and the bundle stays pure.
 */
export { EVM_CHAIN_NAMES } from './chains/chain';

export type ApiType = 'KYA' | 'KYT';
export type RiskLevel = 'LOW' | 'MEDIUM' | 'HIGH';

export interface ScreeningInput {
  requestId: string;
  userId: string;
  apiType: ApiType;
  chain: string;
  /** Normalised address (KYA) or transaction hash (KYT). */
  target: string;
  crawlTimeoutMs: number;
  /** Deepest crawl the credits held for this job pay for. */
  maxDepth: number;
  creditsHeld: number;
  heartbeatTimeoutMs: number;
  referenceId: string | null;
  /** The customer policy version the answer is scored under; absent or null: the standard model. */
  policy?: import('./engine/scoring-policy').PolicySnapshot | null;
}

export interface JobError {
  code: string;
  message: string;
}

export interface ScreeningOutcome {
  status: 'completed' | 'failed';
  responseId: string | null;
  riskLevel: RiskLevel | null;
  creditsCharged: number;
  error: JobError | null;
}

export interface QueuedJobSweepSummary {
  examined: number;
  /** Had no workflow: started now. */
  restarted: number;
  /** A workflow is running: left alone. */
  running: number;
  /** Never started within abandonAfter, or ended without a result: hold released, job failed. */
  released: number;
  /** Its workflow completed but its mirror write never landed: that write applied now. */
  repaired: number;
  /** Anything an operator must look at (logged). */
  left: number;
}

/** Published for other features' workflows (type-only: nothing of the implementations enters their bundle). */
export type { ScreeningActivities } from './activities';
export type { AnalysisResult } from './engine/types';
export type { batchItemScreeningWorkflow, screeningWorkflow } from './workflows';
