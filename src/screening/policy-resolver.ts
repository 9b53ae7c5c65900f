import type { PoolClient } from 'pg';
import type { PolicySnapshot } from './engine/scoring-policy';
import { AppError } from '../platform/errors';
import { SCREENING_ERRORS } from './error-codes';

/**
 * How screening finds the policy version a job, batch or rescore is scored under (the policies feature implements
 * it; the composition root wires it in). `policyId` undefined or null: the account's default policy, or the
 * standard model (null) when it has none; 'standard': the standard model whatever the default. An id the account
 * does not have (or deleted) throws PolicyNotFoundError.
 */
export interface PolicyResolver {
  resolve(userId: string, policyId: string | null | undefined, client?: PoolClient): Promise<PolicySnapshot | null>;
}

export class PolicyNotFoundError extends AppError {
  constructor(readonly policyId: string) {
    super(SCREENING_ERRORS.POLICY_NOT_FOUND, `This account has no policy "${policyId}" (never created, or deleted)`);
  }
}
