import { AppError } from '../platform/errors';
import { CASES_ERRORS } from './error-codes';

/** A case workflow started for a case its account does not have (by hand, through the Temporal frontend). */
export class CaseWorkflowNotAuthenticError extends AppError {
  constructor(reason: string) {
    super(CASES_ERRORS.CASE_WORKFLOW_NOT_AUTHENTIC, reason);
  }
}

/** The actor is not an active member of the case's account (removed meanwhile, or never): the action is refused. */
export class NotACaseMemberError extends AppError {
  constructor() {
    super(CASES_ERRORS.CASE_ACTION_FORBIDDEN, 'Only an active member of the team acts on its cases');
  }
}
