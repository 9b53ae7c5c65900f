/**
 * Teams: an account (a row of `users`, person or organization) has members, each with one team role. A person's own
 * account is a one-member organization of itself (role admin). The member acting in a request is who an API key was
 * made by, or whom a session token names; what the account holds belongs to the account, never to the member.
 */
export const TEAM_ROLES = ['admin', 'analyst', 'approver'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** The person acting for the account in this request, with their role in it. */
export interface Member {
  /** The person's `users.id`. */
  id: string;
  role: TeamRole;
  email: string | null;
  displayName: string | null;
}

/** What an account is: a person's own (its Clerk user) or an organization's (its Clerk organization). */
export type AccountKind = 'person' | 'organization';

/** A member as the team lists them (GET /api/v1/team). */
export interface TeamMember extends Member {
  status: 'active' | 'removed';
  joinedAt: string;
  removedAt: string | null;
}
