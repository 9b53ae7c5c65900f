/** Case workflows: one per case, driven by its team through updates and by its SLA timers. Deterministic code only. */
import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  currentUpdateInfo,
  continueAsNew,
  defineSignal,
  defineUpdate,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { CaseActivities } from './activities';
import { type Actor, CASE_ACTIONS, type CaseAction, type CaseActionName, type CaseSnapshot } from './domain/case-model';
import { decideAction, isRefusal, type Refusal, type Transition } from './domain/decide-action';
import { type CaseSla, slaDeadline } from './domain/sla';
import { validActionRequest } from './domain/valid-action-request';
import {
  CASE_SIGNALS,
  type CaseActionRequest,
  type CaseActionResult,
  type CaseAlert,
  type CaseWorkflowInput,
  type PendingTrailEntry,
} from './workflow-types';
import { CaseSeverityAttr, CaseStateAttr, UserIdAttr } from '../platform/temporal/search-attributes';
import { CASES_ERRORS } from './error-codes';

/**
 * Short transactions: a worker lost mid-write is noticed within 10 s and the write retried elsewhere (idempotent by
 * seq). Ordinary activities only: two updates accepted in one workflow task each awaiting a local activity resolved
 * in another order on replay (the fault suite's worker kills showed it), so the role check is an activity too.
 */
const db = proxyActivities<CaseActivities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '500ms', maximumInterval: '30s' },
});

export const caseAlertSignal = defineSignal<[CaseAlert]>(CASE_SIGNALS.alert);
/** One update per action (`assign`, `comment`, `attach_job`, `propose`, `approve`, `reject`, `reopen`). */
export const caseUpdates = Object.fromEntries(
  CASE_ACTIONS.map((name) => [name, defineUpdate<CaseActionResult, [CaseActionRequest]>(name)]),
) as Record<CaseActionName, ReturnType<typeof defineUpdate<CaseActionResult, [CaseActionRequest]>>>;

/** A run continues as new past this many events, carrying nothing: the next run reads the case from its mirror. */
const HISTORY_LIMIT = 4_000;

const failureOf = (r: Refusal) =>
  ApplicationFailure.create({
    type:
      r.refused === 'forbidden'
        ? CASES_ERRORS.CASE_ACTION_FORBIDDEN.code
        : r.refused === 'conflict'
          ? CASES_ERRORS.CASE_STATE_CONFLICT.code
          : CASES_ERRORS.CASE_ACTION_INVALID.code,
    message: r.message,
    nonRetryable: true,
  });

/** The worker's refusal of the actor (not an active member) as the update's own failure, as a validator's would be. */
function asRefusal(err: unknown): never {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure && cause.type === CASES_ERRORS.CASE_ACTION_FORBIDDEN.code)
    throw ApplicationFailure.create({ type: cause.type, message: cause.message, nonRetryable: true });
  throw err;
}

/**
 * One case (id `case:<case id>`): it starts from its mirror (loadCase, which also proves the case is the account's),
 * then takes alerts (signal `alert`), its team's actions (updates, each validated by the one rule book
 * decideAction before it is accepted, and again after the worker confirmed the member's role) and its SLA timers
 * (unassigned past assign_within, undecided past decide_within: escalate, one severity up). Every change is an
 * entry of the case's trail, written in order by appendCaseEntries (idempotent by seq) with the mirror. A closed
 * case's run ends; a new alert or a reopen starts the next run (signal- and update-with-start). Long histories
 * continue as new.
 */
export async function caseWorkflow(input: CaseWorkflowInput): Promise<void> {
  const historyLimit = Math.min(Math.max(input.continueAsNewAfterEvents ?? HISTORY_LIMIT, 200), HISTORY_LIMIT);
  const alerts: CaseAlert[] = [];
  const pending: PendingTrailEntry[] = [];
  let writing: Promise<void> = Promise.resolve();
  // The case as loaded and changed since; null until loadCase answers. Handlers are set before that, so an update
  // delivered with the start (update-with-start) or a signal that started the run is never missed.
  let c: { snapshot: CaseSnapshot; seq: number; slaSince: number; sla: CaseSla } | null = null;
  // Update ids already recorded (this run's and, from loadCase, the latest of earlier runs): a client's retry of an
  // action that a previous run recorded is answered with the case as it is, not applied a second time.
  const applied = new Set<string>();

  const searchable = (snapshot: CaseSnapshot) =>
    upsertSearchAttributes([
      { key: UserIdAttr, value: input.accountId },
      { key: CaseStateAttr, value: snapshot.state },
      { key: CaseSeverityAttr, value: snapshot.severity },
    ]);

  /** Applies a decided transition at once (so the next validator sees it) and writes it in order. */
  const record = (
    t: Transition,
    actor: Actor,
    action: CaseAction['action'],
    updateId: string | null = null,
  ): Promise<void> => {
    const now = c as NonNullable<typeof c>;
    const restartsSla = t.escalated || (t.next.state === 'open' && now.snapshot.state !== 'open') || now.seq === 0;
    const entry: PendingTrailEntry = {
      seq: ++now.seq,
      at: new Date().toISOString(),
      actor: actor.kind === 'member' ? { kind: 'member', memberId: actor.memberId, role: actor.role } : actor,
      action,
      detail: t.detail,
      before: now.snapshot,
      after: t.next,
      closing: t.closing,
      escalated: t.escalated,
      restartsSla,
      updateId,
    };
    if (updateId) applied.add(updateId);
    now.snapshot = t.next;
    if (restartsSla) now.slaSince = Date.parse(entry.at);
    pending.push(entry);
    searchable(now.snapshot);
    writing = writing.then(async () => {
      const batch = pending.splice(0);
      if (batch.length > 0) await db.appendCaseEntries({ ...input, entries: batch });
    });
    return writing;
  };

  setHandler(caseAlertSignal, (alert) => {
    if (!alerts.some((a) => a.alertKey === alert.alertKey)) alerts.push(alert);
  });
  for (const name of CASE_ACTIONS) {
    setHandler(
      caseUpdates[name],
      async (request): Promise<CaseActionResult> => {
        await condition(() => c !== null);
        const updateId = currentUpdateInfo()?.id ?? null;
        const answer = () => ({
          caseId: input.caseId,
          trailLength: (c as NonNullable<typeof c>).seq,
          snapshot: (c as NonNullable<typeof c>).snapshot,
        });
        if (updateId && applied.has(updateId)) return answer();
        const { role } = await db.confirmActor({ ...input, memberId: request.memberId }).catch(asRefusal);
        if (updateId && applied.has(updateId)) return answer();
        const now = c as NonNullable<typeof c>;
        const actor: Actor = { kind: 'member', memberId: request.memberId, role };
        // Decided again now: another update may have changed the case while the role was being confirmed.
        const t = decideAction(now.snapshot, request.action, actor);
        if (isRefusal(t)) throw failureOf(t);
        if (t) await record(t, actor, request.action.action, updateId);
        return answer();
      },
      {
        validator: (request) => {
          const invalid = validActionRequest(name, request);
          if (invalid) throw failureOf({ refused: 'invalid', message: invalid });
          const updateId = currentUpdateInfo()?.id;
          if (!c || (updateId && applied.has(updateId))) return;
          const t = decideAction(c.snapshot, request.action, {
            kind: 'member',
            memberId: request.memberId,
            role: request.role,
          });
          if (isRefusal(t)) throw failureOf(t);
        },
      },
    );
  }

  const loaded = await db.loadCase(input);
  for (const id of loaded.appliedUpdateIds ?? []) applied.add(id);
  c = { snapshot: loaded.snapshot, seq: loaded.trailLength, slaSince: Date.parse(loaded.slaSince), sla: loaded.sla };
  const now = c;
  searchable(now.snapshot);

  for (;;) {
    const seen = now.seq;
    const due = slaDeadline(now.snapshot, now.sla, now.slaSince);
    const wake = () =>
      alerts.length > 0 ||
      now.seq !== seen ||
      now.snapshot.state === 'closed' ||
      workflowInfo().historyLength > historyLimit;
    if (due === null) await condition(wake);
    else await condition(wake, Math.max(due.at - Date.now(), 1));
    while (alerts.length > 0) {
      const alert = alerts.shift() as CaseAlert;
      const t = decideAction(now.snapshot, { action: 'alert', ...alert }, { kind: 'system' });
      if (t && !isRefusal(t)) await record(t, { kind: 'system' }, 'alert');
    }
    // Read again after waking: an action may have moved the deadline or closed the case meanwhile.
    const late = slaDeadline(now.snapshot, now.sla, now.slaSince);
    if (late !== null && Date.now() >= late.at) {
      const t = decideAction(now.snapshot, { action: 'escalate', reason: late.reason }, { kind: 'system' });
      if (t && !isRefusal(t)) await record(t, { kind: 'system' }, 'escalate');
    }
    if (now.snapshot.state !== 'closed' && workflowInfo().historyLength <= historyLimit) continue;
    await condition(allHandlersFinished);
    await writing;
    // An alert or an update that came in meanwhile is handled first; nothing in flight is carried over.
    if (alerts.length > 0 || pending.length > 0) continue;
    if (now.snapshot.state === 'closed') return;
    await continueAsNew<typeof caseWorkflow>(input);
  }
}
