import { defineErrorCodes } from '../platform/errors/error-table';

/**
 * The screening feature's codes: a job's and a screening workflow's failures, and the refusals of its routes.
 * Pure data: workflows import it (src/screening/workflows.ts reads INPUT_NOT_AUTHENTIC back).
 */
export const SCREENING_ERRORS = defineErrorCodes({
  /** Not an address or transaction of the chain, or a chain the service does not screen. */
  INVALID_TARGET: { status: 422, retryable: false },
  TRANSACTION_NOT_FOUND: { status: 422, retryable: false },
  /** The chain's node or API failed or is not set up; a configuration error is raised as not retryable. */
  CHAIN_UNAVAILABLE: { status: 502, retryable: true },
  /** A KYT on a chain this deployment has no node for (KYA still works). */
  CHAIN_NOT_CONFIGURED: { status: 422, retryable: false },
  /** The queued-job sweeper found a job its api never started (credits released, nothing charged). */
  NOT_STARTED: { status: 502, retryable: false },
  /** The job's workflow ended without a result (terminated, timed out). */
  JOB_ABORTED: { status: 502, retryable: false },
  /** A job that cannot be scored again: not completed, or stored before scoring evidence was kept. */
  JOB_NOT_RESCORABLE: { status: 409, retryable: false },
  /** A policy_id the account does not have (never created, or deleted): the resolver every screening uses. */
  POLICY_NOT_FOUND: { status: 404, retryable: false },
  /**
   * A screening, batch-item, x402 report or batch workflow whose input is not what the api recorded: no hold of that
   * request id, user and amount, no queued job of that user, another target or depth, no live x402 claim of that
   * request id, or a workflow id other than the one the api gives it. Nothing is analysed, charged or released.
   */
  INPUT_NOT_AUTHENTIC: { status: 403, retryable: false },
  /**
   * A monitor or list-version notice workflow whose own id or input names no stored monitor or list version
   * (monitor:<id> of an existing monitor, list-version:<id> of an existing version and its issue date), or a
   * re-screen request id already recorded for another account or target: it screens and signals nothing. Declared
   * here, not in monitors, because screening's hold (hold-and-record.ts) refuses the re-screen, and monitors build
   * on screening, never the reverse.
   */
  MONITOR_WORKFLOW_NOT_AUTHENTIC: { status: 409, retryable: false },
});
