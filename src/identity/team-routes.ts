import { Router } from 'express';
import { z } from 'zod';
import { currentMember, currentUser } from './authenticate';
import type { IdentityCache } from './identity-cache';
import { requireTeamRole } from './require-team-role';
import { requireScope } from './scopes';
import { TEAM_ROLES } from './team';
import type { TeamStore } from './team-store';
import { notFound, parseOrThrow } from '../platform/http/errors';

const ROLE_EXPECTED = `one of ${TEAM_ROLES.join(', ')}`;

export const setTeamRoleBody = z
  .object({ role: z.enum(TEAM_ROLES, { error: ROLE_EXPECTED }) }, { error: 'a JSON object' })
  .strict();

export const teamMemberSchema = z.object({
  id: z.uuid().meta({ description: "The member's user id (the person)" }),
  role: z.enum(TEAM_ROLES),
  status: z.enum(['active', 'removed']).meta({ description: 'A removed member keeps their row, without access' }),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  joinedAt: z.iso.datetime(),
  removedAt: z.iso.datetime().nullable(),
});

export const teamResponse = z.object({
  success: z.literal(true),
  data: z.object({
    account: z.object({
      id: z.uuid(),
      kind: z.enum(['person', 'organization']),
      name: z.string().nullable().meta({ description: "The organization's name in Clerk (null for a person)" }),
    }),
    you: z
      .object({ id: z.uuid(), role: z.enum(TEAM_ROLES) })
      .meta({ description: 'The member acting in this request' }),
    members: z.array(teamMemberSchema),
  }),
});

export const teamMemberResponse = z.object({ success: z.literal(true), data: teamMemberSchema });
export const removedTeamMemberResponse = z.object({
  success: z.literal(true),
  data: teamMemberSchema.extend({
    revokedApiKeyIds: z
      .array(z.uuid())
      .meta({ description: 'The keys the member had made on this account, revoked with their removal' }),
  }),
});

export interface TeamRouterDeps {
  teams: TeamStore;
  /** This instance's cached credentials: a changed member's are dropped before the answer (others on the event). */
  identityCache?: Pick<IdentityCache, 'forgetUser'>;
}

/**
 * The account's team: who its members are (any member), and its admins changing a member's role or removing them.
 * Clerk stays where people join an organization; these routes act on this service's side at once (a removed member's
 * sessions and keys stop here even while Clerk still lists them).
 */
export function createTeamRouter(deps: TeamRouterDeps): Router {
  const router = Router();

  router.get('/team', requireScope('read'), async (_req, res) => {
    const team = await deps.teams.team(currentUser(res).id);
    const you = currentMember(res);
    res.json({ success: true, data: { ...team, you: { id: you.id, role: you.role } } });
  });

  router.put('/team/members/:memberId', requireScope('keys'), requireTeamRole('admin'), async (req, res) => {
    const { role } = parseOrThrow(setTeamRoleBody, req.body);
    const accountId = currentUser(res).id;
    const member = await deps.teams.setRole(accountId, req.params.memberId, role);
    if (!member) throw notFound('Team member');
    deps.identityCache?.forgetUser(accountId);
    res.json({ success: true, data: member });
  });

  router.delete('/team/members/:memberId', requireScope('keys'), requireTeamRole('admin'), async (req, res) => {
    const accountId = currentUser(res).id;
    const removed = await deps.teams.removeMember(accountId, req.params.memberId);
    if (!removed) throw notFound('Team member');
    deps.identityCache?.forgetUser(accountId);
    res.json({ success: true, data: { ...removed.member, revokedApiKeyIds: removed.revokedKeyIds } });
  });

  return router;
}
