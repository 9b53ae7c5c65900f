import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { verifyCaseTrail } from '../../../src/cases/trail/verify-trail';
import { generateApiKey } from '../../../src/identity/api-key-format';
import type { FaultStack } from '../fault-stack';
import { pct, seconds, sleep, startReport, type Report, type ScenarioReport } from '../report';

/** Time the actions have to reach a definite answer (a kill stalls a case's writes for up to 30 s, their timeout). */
const DEADLINE_MS = 120_000;
/** A client gives up waiting for one answer after this long and sends the same request again (same key). */
const ATTEMPT_TIMEOUT_MS = 4_000;
/** The answers a client stops on: recorded (200), refused by role (403) or by the case's state (409). */
const DEFINITE = new Set([200, 403, 409]);
const COMMENT_CLIENTS = 8;
const ROLES = ['admin', 'analyst', 'analyst', 'approver', 'approver'] as const;

type Role = (typeof ROLES)[number];
interface Member {
  memberId: string;
  role: Role;
  key: string;
}
interface OpenedCase {
  id: string;
  subject: string;
}

/** One member action as a client sends it: the same Idempotency-Key on every attempt until a definite answer. */
interface Action {
  caseIndex: number;
  kind: 'comment' | 'assign' | 'propose' | 'approve';
  member: Member;
  body: Record<string, unknown>;
  idempotencyKey: string;
  /** The last answer: a definite one, or null when none came before the deadline. */
  status: number | null;
  answer: any;
  attempts: number;
  timeouts: number;
  errors: number;
  ms: number;
}

/**
 * Listed ethereum addresses of the shipped OFAC list (rows from the SDN XML): each KYA of one answers HIGH, sanctions.
 */
function listedEthereumAddresses(n: number): string[] {
  const csv = readFileSync(path.join(__dirname, '..', '..', '..', 'data', 'risk', 'sanctions_ofac.csv'), 'utf8');
  const addresses = new Set<string>();
  for (const line of csv.split('\n')) {
    const [chain, , address] = line.split(',');
    if (chain === 'ethereum' && address?.startsWith('0x') && /,active,,ofac-sdn-xml-/.test(line))
      addresses.add(address.toLowerCase());
    if (addresses.size === n) break;
  }
  if (addresses.size < n) throw new Error(`the shipped OFAC list has only ${addresses.size} ethereum addresses`);
  return [...addresses];
}

/**
 * An organization account with one member per role in ROLES, each with an API key on the organization's account made
 * by them, and credits for the jobs that open the cases: written through SQL and the stores, as the Clerk webhook and
 * a session leave them (test/helpers/teams.ts createTeam does the same for the jest stack).
 */
async function createCaseTeam(stack: FaultStack, credits: number): Promise<{ accountId: string; members: Member[] }> {
  const tag = randomUUID().replace(/-/g, '').slice(0, 20);
  const { rows } = await stack.pool.query<{ id: string }>(
    `INSERT INTO users (kind, clerk_org_id, display_name) VALUES ('organization', $1, 'Fault suite team') RETURNING id`,
    [`org_faults${tag}`],
  );
  const accountId = (rows[0] as { id: string }).id;
  const members: Member[] = [];
  for (const [i, role] of ROLES.entries()) {
    const person = await stack.pool.query<{ id: string }>(
      'INSERT INTO users (clerk_user_id, email, display_name) VALUES ($1, $2, $3) RETURNING id',
      [`user_faults${tag}${i}`, `faults-${role}-${i}-${tag}@example.com`, `Fault ${role} ${i}`],
    );
    const memberId = (person.rows[0] as { id: string }).id;
    await stack.pool.query('INSERT INTO account_members (account_id, member_id, role) VALUES ($1, $2, $3)', [
      accountId,
      memberId,
      role,
    ]);
    const key = generateApiKey();
    await stack.stores.users.createApiKey(accountId, `faults ${role} ${i}`, key, { createdBy: memberId });
    members.push({ memberId, role, key });
  }
  await stack.stores.credits.grant({
    userId: accountId,
    amount: credits,
    idempotencyKey: `faults-seed:${accountId}`,
    reason: 'fault suite seed',
    source: 'test',
  });
  return { accountId, members };
}

async function call(
  stack: FaultStack,
  method: 'GET' | 'POST',
  route: string,
  key: string | null,
  options: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<{ status: number; body: any } | 'timeout' | 'error'> {
  try {
    const res = await fetch(`${stack.apiUrl}${route}`, {
      method,
      headers: { ...(key ? { 'x-api-key': key } : {}), 'content-type': 'application/json', ...options.headers },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, body };
  } catch (err) {
    return err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError') ? 'timeout' : 'error';
  }
}

/**
 * Sends one action the way a careful integrator does: every attempt carries the action's Idempotency-Key, and a
 * timeout, a dropped connection or any answer that is not definite (5xx, 429) is sent again, with backoff, until a
 * definite answer or the deadline. An answer that is neither definite nor retryable (400, 401, 404) ends it too: the
 * audit reports it.
 */
async function send(stack: FaultStack, cases: OpenedCase[], action: Action, deadline: number): Promise<Action> {
  const started = Date.now();
  const route = `/api/v1/cases/${(cases[action.caseIndex] as OpenedCase).id}/${action.kind}`;
  let backoff = 100;
  while (Date.now() < deadline) {
    action.attempts += 1;
    const res = await call(stack, 'POST', route, action.member.key, {
      body: action.body,
      headers: { 'Idempotency-Key': action.idempotencyKey },
      timeoutMs: ATTEMPT_TIMEOUT_MS,
    });
    if (res === 'timeout') action.timeouts += 1;
    else if (res === 'error') action.errors += 1;
    else {
      action.status = res.status;
      action.answer = res.body;
      if (DEFINITE.has(res.status) || (res.status < 500 && res.status !== 429 && res.status !== 408)) break;
      action.errors += 1;
    }
    await sleep(backoff);
    backoff = Math.min(backoff * 2, 1_000);
  }
  action.ms = Date.now() - started;
  return action;
}

const newAction = (caseIndex: number, kind: Action['kind'], member: Member, body: Record<string, unknown>): Action => ({
  caseIndex,
  kind,
  member,
  body,
  idempotencyKey: `faults-case-${kind}-${randomUUID()}`,
  status: null,
  answer: null,
  attempts: 0,
  timeouts: 0,
  errors: 0,
  ms: 0,
});

/** Opens one case per address: a KYA job of a listed address (HIGH, sanctions) opens its subject's case. */
async function openCases(
  stack: FaultStack,
  team: { accountId: string; members: Member[] },
  addresses: string[],
  report: Report,
): Promise<OpenedCase[] | null> {
  const key = (team.members[1] as Member).key;
  const deadline = Date.now() + 60_000;
  const jobs = await Promise.all(
    addresses.map(async (address) => {
      for (;;) {
        const res = await call(stack, 'POST', '/api/v1/kyt/job', key, { body: { chain: 'ethereum', address } });
        if (res !== 'timeout' && res !== 'error' && res.status === 202) return res.body.data.request_id as string;
        if (Date.now() > deadline) throw new Error(`the KYA of ${address} was not accepted: ${JSON.stringify(res)}`);
        await sleep(250);
      }
    }),
  );
  for (const requestId of jobs) {
    for (;;) {
      const res = await call(stack, 'GET', `/api/v1/kyt/job/${requestId}`, key);
      const data = res !== 'timeout' && res !== 'error' && res.status === 200 ? res.body.data : null;
      if (data?.status === 'completed' || data?.status === 'failed') {
        report.require(
          data.status === 'completed' && data.response?.risk_level === 'HIGH',
          `the KYA ${requestId} of a listed address ended ${data.status} ${data.response?.risk_level ?? ''} ` +
            '(want completed HIGH)',
        );
        break;
      }
      if (Date.now() > deadline) throw new Error(`the KYA ${requestId} did not complete within 60 s`);
      await sleep(200);
    }
  }
  // The job's settle opens the case (a local activity), then the case's workflow writes its first entry (the alert).
  for (;;) {
    const { rows } = await stack.pool.query<{ id: string; subject: string; trail_length: number }>(
      'SELECT id, subject, trail_length FROM cases WHERE user_id = $1',
      [team.accountId],
    );
    const ready = rows.filter((r) => r.trail_length >= 1);
    if (ready.length === addresses.length)
      return addresses.map((a) => ({ id: (ready.find((r) => r.subject === a) as { id: string }).id, subject: a }));
    if (Date.now() > deadline) {
      report.fail(`${ready.length} of ${addresses.length} cases opened (with their first entry) within 60 s`);
      return null;
    }
    await sleep(200);
  }
}

interface CaseRun {
  runId: string;
  status: string;
}

/**
 * Every run of each case's workflow, and the traces a kill leaves on them (a timed-out task, an activity attempt 2).
 */
async function caseRuns(stack: FaultStack, cases: OpenedCase[]) {
  const runs = new Map<string, CaseRun[]>();
  let timedOutTasks = 0;
  let failedTasks = 0;
  /** Runs whose workflow task failed on replay with a nondeterminism error: stuck until reset. */
  const nondeterministic: string[] = [];
  const retried: Record<string, number> = {};
  for (const c of cases) {
    const workflowId = `case:${c.id}`;
    const list: CaseRun[] = [];
    for await (const run of stack.temporal.workflow.list({ query: `WorkflowId = "${workflowId}"` }))
      list.push({ runId: run.runId, status: run.status.name });
    runs.set(c.id, list);
    for (const run of list) {
      const history = await stack.temporal.workflow.getHandle(workflowId, run.runId).fetchHistory();
      const typeOf = new Map<string, string>();
      for (const e of history.events ?? []) {
        if (e.workflowTaskTimedOutEventAttributes) timedOutTasks += 1;
        const failed = e.workflowTaskFailedEventAttributes;
        if (failed) {
          failedTasks += 1;
          const message = failed.failure?.message ?? '';
          if (
            /nondeterminism/i.test(message) &&
            !nondeterministic.some((n) => n.startsWith(`${workflowId}/${run.runId}`))
          )
            nondeterministic.push(`${workflowId}/${run.runId} (event ${e.eventId}: ${message.slice(0, 160)})`);
        }
        const scheduled = e.activityTaskScheduledEventAttributes;
        if (scheduled) typeOf.set(String(e.eventId), scheduled.activityType?.name ?? '?');
        const startedAttrs = e.activityTaskStartedEventAttributes;
        if (startedAttrs && (startedAttrs.attempt ?? 1) >= 2) {
          const type = typeOf.get(String(startedAttrs.scheduledEventId)) ?? '?';
          retried[type] = (retried[type] ?? 0) + 1;
        }
      }
    }
  }
  return { runs, timedOutTasks, failedTasks, nondeterministic, retried };
}

/**
 * Cases while the worker process is SIGKILLed twice: a team opens `cases` sanctions cases (KYA of listed addresses),
 * then its members act on them concurrently (COMMENT_CLIENTS clients post `comments` comments of distinct texts
 * round-robin over the cases; per case an analyst assigns it to themself and proposes a disposition, then both
 * approvers approve at once), every action with its own Idempotency-Key and retried on any failure or timeout with
 * that key until a definite answer (200, 403, 409). The worker is killed once 30 % of the comments are answered, and
 * again soon after the new worker has answered more; a new one is started each time. Afterwards some acknowledged
 * actions are sent again with their keys, as by a client whose answer was lost, after the run that recorded them ended:
 * they must answer 200 again. Then the audit, from Postgres and the api: every comment answered 200 is in its case's
 * trail exactly once, nothing else is; every trail is seq 1..n with the mirror's length, head and snapshot, and
 * verifies (signatures, hash chain, before = previous after); the entries are exactly the alert and the actions
 * answered 200; one approval per case, and the case closed as proposed and approved; no case run is left running or
 * failed replay (nondeterminism). The kills must have caught updates in flight (a timed-out workflow task or an
 * activity attempt 2).
 */
export async function caseWorkerKill(
  stack: FaultStack,
  options: { cases: number; comments: number },
): Promise<ScenarioReport> {
  const report = startReport('case worker SIGKILL');
  const team = await createCaseTeam(stack, options.cases * 10 + 50);
  const byRole = (role: Role) => team.members.filter((m) => m.role === role);
  const [analysts, approvers] = [byRole('analyst'), byRole('approver')];
  const cases = await openCases(stack, team, listedEthereumAddresses(options.cases), report);
  if (!cases) return report.finish();
  const deadline = Date.now() + DEADLINE_MS;
  const started = Date.now();

  // The comments, round-robin over cases and members; distinct texts so the audit finds each one by its text.
  const comments: Action[] = Array.from({ length: options.comments }, (_, n) =>
    newAction(n % cases.length, 'comment', team.members[Math.floor(n / cases.length) % team.members.length] as Member, {
      text: `fault comment ${n} ${randomUUID()}`,
    }),
  );
  let nextComment = 0;
  let answeredComments = 0;
  const inFlight = new Set<Action>();
  const waiters: { n: number; resolve: () => void }[] = [];
  const tell = () => {
    for (const w of waiters.filter((w) => answeredComments >= w.n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  const whenAnswered = (n: number) =>
    answeredComments >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }));
  const tracked = async (action: Action) => {
    inFlight.add(action);
    await send(stack, cases, action, deadline);
    inFlight.delete(action);
    return action;
  };
  const commentClient = async () => {
    while (nextComment < comments.length) {
      const action = comments[nextComment++] as Action;
      await tracked(action);
      answeredComments += 1;
      tell();
    }
  };

  // Per case, once its share of the comments is answered (spread over the stream, so some straddle a kill): an analyst
  // assigns it to themself and proposes (true_positive or false_positive), then both approvers approve at once.
  const decisions: Action[][] = cases.map(() => []);
  const decide = async (i: number) => {
    await Promise.race([whenAnswered(Math.floor((options.comments * (i + 0.5)) / (cases.length + 1))), stream]);
    const analyst = analysts[i % analysts.length] as Member;
    const assign = await tracked(newAction(i, 'assign', analyst, { assignee_id: 'me' }));
    decisions[i]?.push(assign);
    if (assign.status !== 200) return;
    const disposition = i % 2 === 0 ? 'true_positive' : 'false_positive';
    const propose = await tracked(newAction(i, 'propose', analyst, { disposition, note: `fault proposal ${i}` }));
    decisions[i]?.push(propose);
    if (propose.status !== 200) return;
    decisions[i]?.push(
      ...(await Promise.all(
        approvers.map((b, nth) => tracked(newAction(i, 'approve', b, { note: `fault approval ${i} by ${nth}` }))),
      )),
    );
  };
  const stream = Promise.all(Array.from({ length: COMMENT_CLIENTS }, commentClient));
  const deciding = Promise.all(cases.map((_, i) => decide(i)));

  // Kill 1 at 30 % answered; kill 2 once the new worker has answered a few more (its own updates in flight), or 5 s
  // after it polls: the writes caught by kill 1 wait out their 30 s timeout meanwhile, so both stalls overlap.
  const kills: { inFlight: number; restartMs: number; atMs: number }[] = [];
  const kill = async () => {
    const caught = inFlight.size;
    const atMs = Date.now() - started;
    const doomed = stack.worker();
    doomed.kill('SIGKILL');
    await doomed.exited;
    const restart = Date.now();
    await stack.startWorker();
    kills.push({ inFlight: caught, restartMs: Date.now() - restart, atMs });
  };
  await Promise.race([whenAnswered(Math.ceil(options.comments * 0.3)), stream]);
  await kill();
  await Promise.race([
    whenAnswered(answeredComments + Math.max(3, Math.ceil(options.comments * 0.03))),
    stream,
    sleep(5_000),
  ]);
  await kill();
  await Promise.all([stream, deciding]);
  const streamMs = Date.now() - started;
  const actions = [...comments, ...decisions.flat()];

  // A client whose answer was lost sends the same request again, with its key, after the run that recorded it has ended
  // (a closed case's run ends once its handlers finish; a comment on a closed case starts a run of its own): per case
  // its first and last comments answered 200 and its approval. The same update must answer as it did (200) and record
  // nothing new; the audit below counts the trail after these.
  const replays = cases.flatMap((_, i) => {
    const acked = actions.filter((a) => a.caseIndex === i && a.status === 200);
    const commented = acked.filter((a) => a.kind === 'comment');
    return [commented[0], commented.at(-1), acked.find((a) => a.kind === 'approve')].filter(
      (a): a is Action => a !== undefined,
    );
  });
  const replayed = await Promise.all(
    replays.map((a) =>
      send(
        stack,
        cases,
        { ...a, status: null, answer: null, attempts: 0, timeouts: 0, errors: 0, ms: 0 },
        Date.now() + 30_000,
      ),
    ),
  );

  // The audit: each case's trail and mirror in Postgres, its trail as the api serves it, its workflow's runs.
  const jwksRes = await call(stack, 'GET', '/.well-known/jwks.json', null);
  const jwks = jwksRes !== 'timeout' && jwksRes !== 'error' ? jwksRes.body : null;
  const reader = (team.members[0] as Member).key;
  let entries = 0;
  let verified = 0;
  let lost = 0;
  let duplicated = 0;
  let namedDuplicates = 0;
  let unsent = 0;
  for (const [i, c] of cases.entries()) {
    const label = `case ${i} (${c.id})`;
    const { rows: trail } = await stack.pool.query<{ seq: number; hash: string; entry: any }>(
      'SELECT seq, hash, entry FROM case_trail WHERE case_id = $1 ORDER BY seq',
      [c.id],
    );
    const { rows: mirror } = await stack.pool.query<{
      trail_length: number;
      trail_head: string | null;
      snapshot: any;
      state: string;
      assignee_id: string | null;
      sar_ready: boolean;
    }>('SELECT trail_length, trail_head, snapshot, state, assignee_id, sar_ready FROM cases WHERE id = $1', [c.id]);
    const row = mirror[0];
    entries += trail.length;
    report.require(
      trail.every((t, n) => t.seq === n + 1),
      `${label}: trail seqs ${trail.map((t) => t.seq).join(',')} are not 1..${trail.length}`,
    );
    report.require(
      row?.trail_length === trail.length && row?.trail_head === (trail.at(-1)?.hash ?? null),
      `${label}: the mirror says length ${row?.trail_length} head ${row?.trail_head?.slice(0, 12)}, ` +
        `the trail has ${trail.length} rows, head ${trail.at(-1)?.hash.slice(0, 12)}`,
    );
    report.require(
      JSON.stringify(row?.snapshot) === JSON.stringify(trail.at(-1)?.entry.after),
      `${label}: the mirror's snapshot is not the last entry's state after`,
    );

    // Every comment answered 200 is in the trail once (by its text); no comment is there that was not sent.
    const mine = actions.filter((a) => a.caseIndex === i);
    const commentTexts = trail.filter((t) => t.entry.action === 'comment').map((t) => String(t.entry.detail?.text));
    for (const a of mine.filter((a) => a.kind === 'comment')) {
      const n = commentTexts.filter((t) => t === a.body.text).length;
      if (a.status === 200 && n === 0) lost += 1;
      if (n > 1) duplicated += n - 1;
      // The first few are named; the figure counts them all.
      if (n > 1 && namedDuplicates++ < 3) {
        const seqs = trail.filter((t) => t.entry.action === 'comment' && t.entry.detail?.text === a.body.text);
        report.fail(
          `${label}: the comment "${String(a.body.text).slice(0, 20)}…" (answered ${a.status} after ${a.attempts} ` +
            `attempts, ${a.timeouts} timed out) is recorded ${n}×: seqs ` +
            `${seqs.map((t) => `${t.seq} at ${t.entry.at}`).join(', ')}`,
        );
      }
      if (a.status !== 200 && n > 0)
        report.fail(`${label}: a comment answered ${a.status} after ${a.attempts} attempts is in the trail ${n}×`);
    }
    const sentTexts = new Set(mine.filter((a) => a.kind === 'comment').map((a) => a.body.text));
    unsent += commentTexts.filter((t) => !sentTexts.has(t)).length;

    // The entries are exactly the alert and the actions answered 200.
    const count = (action: string) => trail.filter((t) => t.entry.action === action).length;
    const acked = (kind: Action['kind']) => mine.filter((a) => a.kind === kind && a.status === 200).length;
    const tally = ['assign', 'propose', 'approve', 'comment'] as const;
    report.require(
      count('alert') === 1 &&
        tally.every((k) => count(k) === acked(k)) &&
        trail.length === 1 + tally.reduce((s, k) => s + acked(k), 0),
      `${label}: the trail holds ${tally.map((k) => `${k}×${count(k)}`).join(' ')} alert×${count('alert')} ` +
        `(${trail.length} in all), the answers 200 ${tally.map((k) => `${k}×${acked(k)}`).join(' ')}`,
    );
    report.require(count('approve') <= 1, `${label}: ${count('approve')} approvals recorded`);

    // The case ended as its actions say: assigned to the analyst, proposed, approved by the approver answered 200.
    const [assign, propose, ...approvals] = decisions[i] ?? [];
    const approved = approvals.filter((a) => a.status === 200);
    const refused = approvals.filter((a) => a.status === 409);
    const disposition = propose?.body.disposition;
    report.require(
      assign?.status === 200 && propose?.status === 200 && approved.length === 1 && refused.length === 1,
      `${label}: assign ${assign?.status ?? '-'}, propose ${propose?.status ?? '-'}, ` +
        `approvals ${approvals.map((a) => a.status).join('/') || '-'} (want 200, 200, one 200 and one 409)`,
    );
    const s = row?.snapshot;
    report.require(
      row?.state === 'closed' &&
        s?.disposition === disposition &&
        s?.decidedBy === approved[0]?.member.memberId &&
        s?.assigneeId === assign?.member.memberId &&
        s?.proposal === null &&
        row?.sar_ready === (disposition === 'true_positive'),
      `${label}: ended ${row?.state} ${s?.disposition} decided by ${s?.decidedBy} assigned to ${s?.assigneeId} ` +
        `sar_ready ${row?.sar_ready}; its actions say closed ${disposition} by ${approved[0]?.member.memberId} ` +
        `assigned to ${assign?.member.memberId}`,
    );

    // The trail the api serves verifies with the service's keys, and ends at the mirror's head.
    const detail = await call(stack, 'GET', `/api/v1/cases/${c.id}`, reader);
    if (detail === 'timeout' || detail === 'error' || detail.status !== 200) {
      report.fail(`${label}: GET answered ${typeof detail === 'string' ? detail : detail.status}`);
      continue;
    }
    try {
      const v = await verifyCaseTrail({ data: { id: detail.body.data.id, trail: detail.body.data.trail } }, jwks);
      report.require(
        v.entries === trail.length && v.head === row?.trail_head,
        `${label}: the served trail verifies ${v.entries} entries to ${v.head.slice(0, 12)}, the table ${trail.length}`,
      );
      verified += 1;
    } catch (err) {
      report.fail(`${label}: the trail does not verify: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  // Every case is closed: its last run ends once its handlers finish (visibility lags: wait for it).
  let running = 0;
  let runs = new Map<string, CaseRun[]>();
  let trace: Omit<Awaited<ReturnType<typeof caseRuns>>, 'runs'> = {
    timedOutTasks: 0,
    failedTasks: 0,
    nondeterministic: [],
    retried: {},
  };
  for (const until = Date.now() + 15_000; ; await sleep(500)) {
    const read = await caseRuns(stack, cases);
    runs = read.runs;
    trace = read;
    running = [...runs.values()].flat().filter((r) => r.status === 'RUNNING').length;
    if (running === 0 || Date.now() > until) break;
  }

  const statusCount = (status: number | null) => actions.filter((a) => a.status === status).length;
  const unanswered = actions.filter((a) => a.status === null || !DEFINITE.has(a.status));
  const retries = actions.reduce((s, a) => s + a.attempts - 1, 0);
  const commentsOnce = comments.filter((a) => a.status === 200).length - lost;
  const ms = actions.map((a) => a.ms);
  report.figure('cases', cases.length);
  report.figure('actions', actions.length);
  report.figure('acknowledged', statusCount(200));
  report.figure('refused-409/403', `${statusCount(409)}/${statusCount(403)}`);
  report.figure(
    'retries',
    `${retries}(timeouts=${actions.reduce((s, a) => s + a.timeouts, 0)},` +
      `errors=${actions.reduce((s, a) => s + a.errors, 0)})`,
  );
  report.figure(
    'replays',
    `${replayed.length}→${Object.entries(
      replayed.reduce<Record<string, number>>((by, a) => {
        by[String(a.status)] = (by[String(a.status)] ?? 0) + 1;
        return by;
      }, {}),
    )
      .map(([status, n]) => `${n}×${status}`)
      .join(',')}`,
  );
  report.figure('kills', kills.length);
  report.figure('kills-at', kills.map((k) => seconds(k.atMs)).join('/'));
  report.figure('in-flight-at-kills', kills.map((k) => k.inFlight).join('/'));
  report.figure('entries', entries);
  report.figure('comments-once', `${commentsOnce}/${comments.length}`);
  report.figure('lost', lost);
  report.figure('duplicated', duplicated);
  report.figure('verified', `${verified}/${cases.length}`);
  report.figure('runs', [...runs.values()].flat().length);
  report.figure('workflow-tasks-timed-out/failed', `${trace.timedOutTasks}/${trace.failedTasks}`);
  report.figure('nondeterministic-runs', trace.nondeterministic.length);
  report.figure(
    'retried',
    Object.entries(trace.retried)
      .map(([type, n]) => `${type}×${n}`)
      .join(',') || 'none',
  );
  report.figure('restart→polling', kills.map((k) => seconds(k.restartMs)).join('/'));
  report.figure('action-p50/max', `${seconds(pct(ms, 50))}/${seconds(Math.max(...ms))}`);
  report.figure('stream', seconds(streamMs));
  report.require(
    unanswered.length === 0,
    `${unanswered.length} actions without a definite answer: ` +
      Object.entries(
        unanswered.reduce<Record<string, number>>((by, a) => {
          const answer = a.attempts === 0 ? 'not sent before the deadline' : (a.status ?? 'no answer');
          const what = `case ${a.caseIndex} ${a.kind} ${answer} ${a.answer?.code ?? ''}`.trim();
          by[what] = (by[what] ?? 0) + 1;
          return by;
        }, {}),
      )
        .map(([what, n]) => `${n}× ${what}`)
        .join(', '),
  );
  for (const r of replayed.filter((r) => r.status !== 200))
    report.fail(
      `case ${r.caseIndex}: its ${r.kind} answered 200, then ${r.status} ${r.answer?.code ?? ''} ` +
        'when the client sent it again with the same Idempotency-Key (the same update must answer the same)',
    );
  report.require(statusCount(403) === 0, `${statusCount(403)} actions refused 403 (no member acts outside their role)`);
  report.require(lost === 0, `${lost} comments answered 200 are not in their case's trail`);
  report.require(duplicated === 0, `${duplicated} comments recorded more than once`);
  report.require(unsent === 0, `${unsent} comments in the trails that no client sent`);
  report.require(running === 0, `${running} case workflow runs still running after every case closed`);
  // A replay that takes another path leaves the case stuck: every later action on it fails until the run is reset.
  report.require(
    trace.nondeterministic.length === 0,
    `${trace.nondeterministic.length} case workflow runs failed replay with a nondeterminism error: ` +
      trace.nondeterministic.join('; '),
  );
  report.require(
    kills.every((k) => k.inFlight > 0),
    `a kill caught no action in flight (${kills.map((k) => k.inFlight).join('/')})`,
  );
  // Without an interrupted task or a retried activity the kills landed between updates and proved less than they claim.
  report.require(
    trace.timedOutTasks + trace.failedTasks + Object.values(trace.retried).reduce((a, b) => a + b, 0) > 0,
    'no case update was interrupted by the kills (no timed-out workflow task, no activity attempt 2)',
  );
  return report.finish();
}
