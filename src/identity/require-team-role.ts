import { currentMember } from './authenticate';
import type { ScopeCheck } from './scopes';
import { InsufficientTeamRoleError } from './team-errors';
import type { TeamRole } from './team';

/**
 * 403 INSUFFICIENT_TEAM_ROLE unless the member acting in this request (an API key's maker, a session's person) holds
 * one of `roles` in the account; runs after `authenticate`, beside `requireScope` (a key's scope limits what the key
 * may do, the member's role what the person may). Typed like requireScope so the route keeps its params' types.
 */
export function requireTeamRole(...roles: TeamRole[]): ScopeCheck {
  return (_req, res, next) => {
    const member = currentMember(res);
    if (!roles.includes(member.role)) throw new InsufficientTeamRoleError(member.role, roles);
    next();
  };
}
