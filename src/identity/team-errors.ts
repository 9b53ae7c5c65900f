import { AppError } from '../platform/errors';
import { IDENTITY_ERRORS } from './error-codes';
import type { TeamRole } from './team';

/** The acting member's team role may not do this: 403 INSUFFICIENT_TEAM_ROLE, naming the roles that may. */
export class InsufficientTeamRoleError extends AppError {
  constructor(
    readonly role: TeamRole,
    readonly allowed: readonly TeamRole[],
  ) {
    super(
      IDENTITY_ERRORS.INSUFFICIENT_TEAM_ROLE,
      `Your team role (${role}) may not do this; it needs a member whose role is ${allowed.join(' or ')}`,
    );
  }
}

/** The change would leave the account without an active admin: 409 LAST_TEAM_ADMIN, nothing changed. */
export class LastTeamAdminError extends AppError {
  constructor() {
    super(
      IDENTITY_ERRORS.LAST_TEAM_ADMIN,
      'This member is the last active admin of the team: make another member admin first (nothing was changed)',
    );
  }
}
