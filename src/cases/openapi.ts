import type { z } from 'zod';
import type { FeatureOpenApi } from '../platform/features/feature-openapi';
import { accountSecurity } from '../identity';
import { errorResponse, flatError, ref } from '../platform/openapi/error-shapes';
import { jsonBody, ok } from '../platform/openapi/json-content';
import { pathParameter, type Paths } from '../platform/openapi/json-schema';
import type { OperationContext } from '../platform/openapi/operation-context';
import { caseDetailResponse, caseListResponse, caseResponse, caseSlaResponse } from './case-views';
import { CASE_ACTION_PATHS, caseActionBodies, caseSlaBody } from './cases-routes';
import { CASE_SEVERITIES, CASE_STATES } from './domain/case-model';

const TAG = 'Cases';
const caseId = pathParameter('id', 'The case id (another team’s case is 404 like none)', {
  type: 'string',
  format: 'uuid',
});
const idempotencyKey = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description: 'The same key again is the same action: recorded once, answered again',
  schema: { type: 'string', maxLength: 200 },
};

const EXAMPLE_CASE = {
  id: '0d1f6a2e-3c4b-4d5e-8f90-a1b2c3d4e5f6',
  chain: 'ethereum',
  subject_kind: 'address',
  subject: '0x5d5b5dafecbf31bdb08bfd3edad4f2694372d0ef',
  state: 'proposed',
  severity: 'high',
  sanctions: true,
  four_eyes: true,
  assignee_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  proposal: {
    disposition: 'false_positive',
    note: 'Same name, another person: passport checked',
    proposed_by: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  },
  disposition: null,
  decided_by: null,
  escalations: 0,
  jobs: ['846c7c88-3e7d-4e66-b3fd-01b2a40956cf'],
  sar_ready: false,
  trail_length: 3,
  trail_head: '332761362d75c6c3c801bb4829a2ba3c61a4758231ec490d625e1b5875fea070',
  opened_at: '2026-11-27T10:00:00.000Z',
  updated_at: '2026-11-27T10:20:00.000Z',
  closed_at: null,
};

const forbidden = errorResponse(
  'The acting member may not take this action: an analyst approving, or the proposer approving or rejecting their ' +
    'own proposal (four eyes); or the API key lacks the scope',
  flatError(['CASE_ACTION_FORBIDDEN', 'INSUFFICIENT_SCOPE']),
  { success: false, error: 'four eyes: the member who proposed cannot approve it', code: 'CASE_ACTION_FORBIDDEN' },
);
const conflict = errorResponse(
  "The case's state forbids the action (approving a case with no proposal, assigning a closed case, a second " +
    'approval of a case already closed)',
  flatError(['CASE_STATE_CONFLICT']),
  { success: false, error: 'a closed case has no proposal to approve', code: 'CASE_STATE_CONFLICT' },
);

const ACTION_SUMMARIES: Record<keyof typeof CASE_ACTION_PATHS, string> = {
  assign: 'Assign the case to a member of the team (`me` takes it)',
  comment: 'Comment on the case',
  attach_job: 'Attach a job of the account to the case',
  propose:
    'Propose a disposition: false_positive or true_positive (closes a low or medium case at once; a high or ' +
    'sanctions case waits for an approver), or escalated (back to the queue, one severity up)',
  approve: 'Approve the proposal (an approver other than the proposer): the case closes with it',
  reject: 'Reject the proposal (an approver other than the proposer): the case goes back to the proposer',
  reopen: 'Reopen a closed case',
};

function casesOperations({ components }: OperationContext): Paths {
  const oneCase = components.response('Case', caseResponse);
  const actions: Paths = {};
  for (const [name, segment] of Object.entries(CASE_ACTION_PATHS) as [keyof typeof CASE_ACTION_PATHS, string][]) {
    actions[`/api/v1/cases/{id}/${segment}`] = {
      post: {
        operationId: `case_${name}`,
        tags: [TAG],
        summary: ACTION_SUMMARIES[name],
        description:
          'Sent to the case’s workflow as the Temporal update of that name, validated before it is accepted and ' +
          'answered once its trail entry (who, when, what, the case before and after, hash-chained and signed) is ' +
          'written. Roles: every member assigns, comments, attaches, proposes and reopens; only an `approver` ' +
          'approves or rejects, never their own proposal.',
        parameters: [caseId, idempotencyKey],
        requestBody: jsonBody(
          components.request(`Case_${name}`, caseActionBodies[name] as z.ZodType),
          name === 'propose' ? { disposition: 'false_positive', note: 'Same name, another person' } : undefined,
        ),
        responses: {
          200: ok('The case after the action', oneCase, { success: true, data: EXAMPLE_CASE }),
          400: ref('InvalidBody'),
          401: ref('AuthenticationRequired'),
          403: forbidden,
          404: ref('NotFound'),
          409: conflict,
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
        },
        security: accountSecurity('screening'),
      },
    };
  }
  return {
    '/api/v1/cases': {
      get: {
        operationId: 'listCases',
        tags: [TAG],
        summary: 'The case queue: the account’s cases, most recently changed first',
        description:
          'A case opens when a monitor alerts risk_changed, a job, batch item or rescore gets the policy verdict ' +
          'review (MEDIUM) or block (HIGH), or a KYT finds sanctioned exposure; the same subject (chain and address, ' +
          'or transaction) joins its open case, and reopens its closed one with new evidence. Evidence a false ' +
          'positive suppressed opens nothing until the suppression expires.',
        parameters: [
          { name: 'state', in: 'query' as const, required: false, schema: { type: 'string', enum: [...CASE_STATES] } },
          {
            name: 'severity',
            in: 'query' as const,
            required: false,
            schema: { type: 'string', enum: [...CASE_SEVERITIES] },
          },
          {
            name: 'assignee',
            in: 'query' as const,
            required: false,
            description: 'A member id, or `me`',
            schema: { type: 'string' },
          },
          {
            name: 'subject',
            in: 'query' as const,
            required: false,
            description: 'An address or transaction id, as stored (normalised)',
            schema: { type: 'string', maxLength: 128 },
          },
          {
            name: 'limit',
            in: 'query' as const,
            required: false,
            schema: { type: 'integer', minimum: 1, maximum: 100 },
          },
          {
            name: 'offset',
            in: 'query' as const,
            required: false,
            schema: { type: 'integer', minimum: 0, maximum: 1000000 },
          },
        ],
        responses: {
          200: ok('A page of cases', components.response('CaseList', caseListResponse)),
          400: ref('InvalidParameter'),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/cases/sla': {
      get: {
        operationId: 'getCaseSla',
        tags: [TAG],
        summary: 'The account’s SLA per severity, in seconds (unassigned, undecided) before a case escalates',
        responses: {
          200: ok('The SLA', components.response('CaseSla', caseSlaResponse)),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
      put: {
        operationId: 'setCaseSla',
        tags: [TAG],
        summary: 'Set the account’s SLA for some severities (team admins only)',
        requestBody: jsonBody(components.request('CaseSlaBody', caseSlaBody as unknown as z.ZodType), {
          high: { assign_within: 3600, decide_within: 86400 },
        }),
        responses: {
          200: ok('The SLA now', components.response('CaseSla', caseSlaResponse)),
          400: ref('InvalidBody'),
          401: ref('AuthenticationRequired'),
          403: ref('TeamRoleRequired'),
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
        },
        security: accountSecurity('screening'),
      },
    },
    '/api/v1/cases/{id}': {
      get: {
        operationId: 'getCase',
        tags: [TAG],
        summary: 'One case with its audit trail and its alerts',
        description:
          'The trail is verified with `npm run evidence:verify -- CASE.json` and the keys of /.well-known/jwks.json: ' +
          'each entry signed like an answer (request id `case:<id>:<seq>`), each chained to the one before by hash.',
        parameters: [caseId],
        responses: {
          200: ok('The case', components.response('CaseDetail', caseDetailResponse)),
          401: ref('AuthenticationRequired'),
          404: ref('NotFound'),
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/cases/{id}/file': {
      get: {
        operationId: 'getCaseFile',
        tags: [TAG],
        summary: 'The case file: a PDF an auditor reads without our software',
        description:
          'The subject (chain, address or transaction, state, severity, sanctions, disposition, who decided, ' +
          'sar_ready); the findings of the case’s jobs with their sources and the list versions they were screened ' +
          'against; the latest crawl graph drawn as a picture (at most 40 addresses); the alerts; each job’s ' +
          'signed answers (the JWS its poll returns, and the signed payload); the audit trail (seq, time, actor, ' +
          'action, detail, hash, prev_hash, signing kid); and how to verify all of it in words (SHA-256 over ' +
          'RFC 8785 JSON, Ed25519 JWS, keys at /.well-known/jwks.json). Bounded whatever the case holds: at most 50 ' +
          'jobs read and 2,000 trail entries printed (the first and last 1,000), each cut said in the file.',
        parameters: [caseId],
        responses: {
          200: {
            description: 'The case file',
            headers: {
              'Content-Disposition': {
                description: 'attachment; filename="case-<id>.pdf"',
                required: true,
                schema: { type: 'string' },
              },
            },
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
          401: ref('AuthenticationRequired'),
          404: ref('NotFound'),
        },
        security: accountSecurity('read'),
      },
    },
    ...actions,
  };
}

/** The cases' operations for the OpenAPI document (src/platform/features/feature-openapi.ts). */
export const casesOpenApi: FeatureOpenApi = {
  operations: [casesOperations],
  tags: [
    { name: TAG, description: 'Alerts as cases a team decides under four eyes, with a signed trail and a case file' },
  ],
};
