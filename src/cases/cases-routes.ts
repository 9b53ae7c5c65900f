import { Router, type Request } from 'express';
import { z } from 'zod';
import { currentMember, currentUser, requireScope, requireTeamRole } from '../identity';
import type { MemberRoleLookup } from '../identity';
import { DIGITS, isUuid } from '../platform/http/common-patterns';
import { invalidParameter, notFound, parseOrThrow } from '../platform/http/errors';
import type { JobStore } from '../screening';
import type { CaseFileMaker } from './case-file/case-file';
import type { CaseQueries } from './case-queries';
import { caseDetailView, caseView } from './case-views';
import type { CaseWorkflowClient } from './case-workflow-client';
import { CASE_SEVERITIES, CASE_STATES, DISPOSITIONS, MAX_NOTE_LENGTH } from './domain/case-model';
import type { CaseSla } from './domain/sla';
import type { MemberCaseAction } from './workflow-types';

export interface CasesRouterDeps {
  caseQueries: CaseQueries;
  caseWorkflows: Pick<CaseWorkflowClient, 'act'>;
  memberRole: MemberRoleLookup;
  jobs: Pick<JobStore, 'findForUser'>;
  /** The account's SLA per severity: its own rows, else CASE_SLA_SECONDS. */
  slaOf(accountId: string): Promise<CaseSla>;
  /** The case file (PDF) of a case of the account: GET /api/v1/cases/:id/file. */
  caseFile: CaseFileMaker;
}

const note = z
  .string({ error: 'text' })
  .max(MAX_NOTE_LENGTH, `at most ${MAX_NOTE_LENGTH} characters`)
  .nullable()
  .optional();
const slaSeconds = z.int({ error: 'whole seconds' }).min(1, 'at least 1').max(31_536_000, 'at most a year');
const severitySla = z.strictObject({ assign_within: slaSeconds, decide_within: slaSeconds });

/** The body each action route takes (strict: an unknown member is a 400 naming it). */
export const caseActionBodies = {
  assign: z.strictObject({
    assignee_id: z.union([z.uuid({ error: 'a member id or "me"' }), z.literal('me')], { error: 'a member id or "me"' }),
  }),
  comment: z.strictObject({
    text: z
      .string({ error: 'text' })
      .trim()
      .min(1, 'not empty')
      .max(MAX_NOTE_LENGTH, `at most ${MAX_NOTE_LENGTH} characters`),
  }),
  attach_job: z.strictObject({ request_id: z.string({ error: 'a request id' }).min(1).max(100) }),
  propose: z.strictObject({ disposition: z.enum(DISPOSITIONS, { error: DISPOSITIONS.join(', ') }), note }),
  approve: z.strictObject({ note }),
  reject: z.strictObject({ note }),
  reopen: z.strictObject({ note }),
} as const;
export const caseSlaBody = z
  .strictObject(
    Object.fromEntries(CASE_SEVERITIES.map((s) => [s, severitySla.optional()])) as Record<
      (typeof CASE_SEVERITIES)[number],
      z.ZodOptional<typeof severitySla>
    >,
  )
  .refine((b) => Object.values(b).some(Boolean), 'at least one severity');

/** The path segment of each action (`attach_job` is `/attach`). */
export const CASE_ACTION_PATHS = {
  assign: 'assign',
  comment: 'comment',
  attach_job: 'attach',
  propose: 'propose',
  approve: 'approve',
  reject: 'reject',
  reopen: 'reopen',
} as const;

const paging = (value: unknown, fallback: number, max: number, name: string): number => {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !DIGITS.test(value) || Number(value) > max)
    throw invalidParameter(name, `an integer from 0 to ${max}`);
  return Number(value);
};

const oneOf = <T extends string>(value: unknown, allowed: readonly T[], name: string): T | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value))
    throw invalidParameter(name, `one of ${allowed.join(', ')}`);
  return value as T;
};

/**
 * An Idempotency-Key header makes a retried action the same Temporal update: its update id is the action and the key,
 * so a key reused for another action (a comment's key sent with an approval) is another update, never the first
 * one's answer.
 */
function updateIdOf(req: Request, action: string): string | undefined {
  const key = req.get('idempotency-key')?.trim();
  if (key === undefined || key === '') return undefined;
  if (key.length > 200) throw invalidParameter('Idempotency-Key', 'at most 200 characters');
  return `${action}:${key}`;
}

/**
 * The case queue and its actions: GET /api/v1/cases (filters, paged), GET /api/v1/cases/:id (with its trail and
 * alerts), one POST per action (a Temporal update of the case's workflow, answered when its trail entry is written),
 * and the account's SLA. A case of another account is 404 like none.
 */
export function createCasesRouter(deps: CasesRouterDeps): Router {
  const router = Router();

  const ownCase = async (accountId: string, id: string | undefined) => {
    const found = id && isUuid(id) ? await deps.caseQueries.find(accountId, id) : null;
    if (!found) throw notFound('Case');
    return found;
  };

  router.get('/cases', requireScope('read'), async (req, res) => {
    const limit = Math.max(1, paging(req.query.limit, 50, 100, 'limit'));
    const offset = paging(req.query.offset, 0, 1_000_000, 'offset');
    const assignee = req.query.assignee;
    if (assignee !== undefined && (typeof assignee !== 'string' || (assignee !== 'me' && !isUuid(assignee))))
      throw invalidParameter('assignee', 'a member id or "me"');
    const subject = req.query.subject;
    if (subject !== undefined && (typeof subject !== 'string' || subject.length === 0 || subject.length > 128))
      throw invalidParameter('subject', 'an address or transaction id');
    const { cases, total } = await deps.caseQueries.list(
      currentUser(res).id,
      {
        state: oneOf(req.query.state, CASE_STATES, 'state'),
        severity: oneOf(req.query.severity, CASE_SEVERITIES, 'severity'),
        ...(assignee ? { assigneeId: assignee === 'me' ? currentMember(res).id : (assignee as string) } : {}),
        ...(subject ? { subject: (subject as string).trim() } : {}),
      },
      { limit, offset },
    );
    res.json({ success: true, data: cases.map(caseView), pagination: { total, limit, offset } });
  });

  router.get('/cases/sla', requireScope('read'), async (_req, res) => {
    res.json({ success: true, data: await slaView(deps, currentUser(res).id) });
  });

  router.put('/cases/sla', requireScope('screening'), requireTeamRole('admin'), async (req, res) => {
    const body = parseOrThrow(caseSlaBody, req.body);
    const sla = Object.fromEntries(
      Object.entries(body)
        .filter(([, s]) => s)
        .map(([severity, s]) => [severity, { assignWithin: s?.assign_within, decideWithin: s?.decide_within }]),
    );
    await deps.caseQueries.setSla(currentUser(res).id, sla);
    res.json({ success: true, data: await slaView(deps, currentUser(res).id) });
  });

  router.get('/cases/:id', requireScope('read'), async (req, res) => {
    const found = await ownCase(currentUser(res).id, req.params.id);
    const [trail, alerts] = await Promise.all([deps.caseQueries.trail(found.id), deps.caseQueries.alerts(found.id)]);
    res.json({ success: true, data: caseDetailView(found, trail, alerts) });
  });

  router.get('/cases/:id/file', requireScope('read'), async (req, res) => {
    const found = await ownCase(currentUser(res).id, req.params.id);
    const pdf = await deps.caseFile(found, currentUser(res).id);
    res.type('application/pdf').set('Content-Disposition', `attachment; filename="case-${found.id}.pdf"`).send(pdf);
  });

  for (const [name, segment] of Object.entries(CASE_ACTION_PATHS) as [keyof typeof CASE_ACTION_PATHS, string][]) {
    router.post(`/cases/:id/${segment}`, requireScope('screening'), async (req, res) => {
      const account = currentUser(res).id;
      const member = currentMember(res);
      const found = await ownCase(account, req.params.id);
      const action = await actionOf(deps, name, req.body, account, member.id);
      await deps.caseWorkflows.act(
        { caseId: found.id, accountId: account },
        { memberId: member.id, role: member.role, action },
        updateIdOf(req, name),
      );
      res.json({ success: true, data: caseView(await ownCase(account, found.id)) });
    });
  }

  return router;
}

async function slaView(deps: CasesRouterDeps, accountId: string) {
  const rows = await deps.slaOf(accountId);
  return Object.fromEntries(
    Object.entries(rows).map(([s, v]) => [s, { assign_within: v.assignWithin, decide_within: v.decideWithin }]),
  );
}

/** The route's body as the update's action, after the checks only the api can make (a member, a job of the account). */
async function actionOf(
  deps: CasesRouterDeps,
  name: keyof typeof CASE_ACTION_PATHS,
  raw: unknown,
  accountId: string,
  memberId: string,
): Promise<MemberCaseAction> {
  switch (name) {
    case 'assign': {
      const b = parseOrThrow(caseActionBodies.assign, raw);
      const assigneeId = b.assignee_id === 'me' ? memberId : b.assignee_id;
      if (!(await deps.memberRole(accountId, assigneeId)))
        throw invalidParameter('assignee_id', 'an active member of this team');
      return { action: 'assign', assigneeId };
    }
    case 'comment':
      return { action: 'comment', text: parseOrThrow(caseActionBodies.comment, raw).text };
    case 'attach_job': {
      const b = parseOrThrow(caseActionBodies.attach_job, raw);
      if (!isUuid(b.request_id) || !(await deps.jobs.findForUser(b.request_id, accountId)))
        throw invalidParameter('request_id', 'a job of this account');
      return { action: 'attach_job', requestId: b.request_id };
    }
    case 'propose': {
      const b = parseOrThrow(caseActionBodies.propose, raw);
      return { action: 'propose', disposition: b.disposition, note: b.note ?? null };
    }
    default: {
      const b = parseOrThrow(caseActionBodies[name], raw);
      return { action: name, note: b.note ?? null };
    }
  }
}
