import { errorResponse, flatError, ref } from '../../platform/openapi/error-shapes';
import { jsonBody, ok } from '../../platform/openapi/json-content';
import { pathParameter, type Paths } from '../../platform/openapi/json-schema';
import type { OperationContext } from '../../platform/openapi/operation-context';
import { removedTeamMemberResponse, setTeamRoleBody, teamMemberResponse, teamResponse } from '../team-routes';
import { accountSecurity } from './account-security';

const TAG = 'Teams';
const memberId = pathParameter('memberId', "The member's user id (anything else is 404)", {
  type: 'string',
  format: 'uuid',
});

const ACCOUNT_ID = '8c1f0a52-3d2e-4a51-9b0c-6f1d2e3a4b5c';
const ADMIN = {
  id: '2ef2c482-4e24-4bff-b7be-8a7f73e35899',
  role: 'admin',
  status: 'active',
  email: 'ana@example.com',
  displayName: 'Ana Admin',
  joinedAt: '2026-11-20T08:00:00.000Z',
  removedAt: null,
};
const ANALYST = {
  id: '7a4e2c10-9b8d-4f3e-8a1b-2c3d4e5f6a7b',
  role: 'analyst',
  status: 'active',
  email: 'bo@example.com',
  displayName: 'Bo Analyst',
  joinedAt: '2026-11-21T09:30:00.000Z',
  removedAt: null,
};

const lastAdmin = errorResponse(
  'The member is the last active admin of the team: it keeps at least one (nothing is changed)',
  flatError(['LAST_TEAM_ADMIN']),
  {
    success: false,
    error: 'This member is the last active admin of the team: make another member admin first (nothing was changed)',
    code: 'LAST_TEAM_ADMIN',
  },
);

/** The account's members and their roles. */
export function teamsOperations({ components }: OperationContext): Paths {
  const member = components.response('TeamMember', teamMemberResponse);
  return {
    '/api/v1/team': {
      get: {
        operationId: 'getTeam',
        tags: [TAG],
        summary: "The account's team: its members, their roles and status",
        description:
          'Any member. An account is a person (its only member, an admin) or a Clerk organization whose members ' +
          'come from the session tokens and the Clerk webhook (docs/api.md#teams). `you` is the member acting in ' +
          'this request: the person signed in, or the member who made the API key.',
        responses: {
          200: ok('The team', components.response('Team', teamResponse), {
            success: true,
            data: {
              account: { id: ACCOUNT_ID, kind: 'organization', name: 'Acme Compliance' },
              you: { id: ADMIN.id, role: 'admin' },
              members: [ADMIN, ANALYST],
            },
          }),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/team/members/{memberId}': {
      put: {
        operationId: 'setTeamMemberRole',
        tags: [TAG],
        summary: "Change a member's team role (team admins)",
        description:
          "`role` is admin, analyst or approver. Holds from the member's next request (their cached credentials " +
          'are dropped). A later Clerk organizationMembership event sets the role Clerk gives them again.',
        parameters: [memberId],
        requestBody: jsonBody(components.request('SetTeamRoleRequest', setTeamRoleBody), { role: 'approver' }),
        responses: {
          200: ok('The member with its new role', member, { success: true, data: { ...ANALYST, role: 'approver' } }),
          400: ref('InvalidBody'),
          401: ref('AuthenticationRequired'),
          403: ref('TeamRoleRequired'),
          404: ref('NotFound'),
          409: lastAdmin,
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
        },
        security: accountSecurity('keys'),
      },
      delete: {
        operationId: 'removeTeamMember',
        tags: [TAG],
        summary: 'Remove a member from the team (team admins)',
        description:
          'The member loses access at once: their sessions in this account are refused and the API keys they made ' +
          'on it are revoked, in one transaction (other api instances drop them on its outbox events). Removing a ' +
          'removed member answers it as it is. Their row stays, with status `removed`.',
        parameters: [memberId],
        responses: {
          200: ok(
            'The removed member and the keys revoked with it',
            components.response('RemovedTeamMember', removedTeamMemberResponse),
            {
              success: true,
              data: {
                ...ANALYST,
                status: 'removed',
                removedAt: '2026-11-26T10:00:00.000Z',
                revokedApiKeyIds: ['3d6939ad-9930-4117-9564-ee929c5460a7'],
              },
            },
          ),
          401: ref('AuthenticationRequired'),
          403: ref('TeamRoleRequired'),
          404: ref('NotFound'),
          409: lastAdmin,
        },
        security: accountSecurity('keys'),
      },
    },
  };
}
