import { TEAM_ROLES, type TeamRole } from './team';

/** The organization a session token says its user is acting in, with the role Clerk gives them there. */
export interface OrgClaim {
  /** Clerk's organization id (`org_…`). */
  clerkOrgId: string;
  /** The team role the Clerk role maps to (teamRoleOf). */
  role: TeamRole;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * A Clerk organization role as a team role. Clerk writes its roles as `org:<key>` (session tokens v1, webhook
 * events) or `<key>` (v2's `o.rol`); `admin`, `analyst` and `approver` are ours. Any other role (Clerk's default
 * `org:member`, a custom role) is `analyst`, the least a member can be: a role nobody mapped grants no admin or
 * approver power.
 */
export function teamRoleOf(clerkRole: unknown): TeamRole {
  const key = text(clerkRole)?.replace(/^org:/, '');
  return (TEAM_ROLES as readonly string[]).includes(key ?? '') ? (key as TeamRole) : 'analyst';
}

/**
 * The active organization of a verified session token's claims, or null for a session in the user's own account.
 * Session tokens v2 carry it as `o: {id, rol, slg}` (Clerk's 2025-04-10 format); v1 as `org_id` and `org_role`.
 * When both are present (a custom template that adds the v1 names), v2's wins: it is what Clerk itself writes.
 */
export function readOrgClaim(claims: Record<string, unknown>): OrgClaim | null {
  const o = claims.o;
  if (o && typeof o === 'object' && !Array.isArray(o)) {
    const v2 = o as Record<string, unknown>;
    const id = text(v2.id);
    if (id) return { clerkOrgId: id, role: teamRoleOf(v2.rol) };
  }
  const id = text(claims.org_id);
  return id ? { clerkOrgId: id, role: teamRoleOf(claims.org_role) } : null;
}
