import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useSession } from '../context';
import { useRealtimeEvent } from '../realtime';
import type { ApiType, JobStatus, JobStatusEvent, JobView, SubmittedJob } from './job-types';
import type { Submission } from './submission';

const KEPT_SUBMISSIONS = 10;
/** Events for jobs this tab has not heard back about yet; bounded because other clients' jobs arrive too. */
const KEPT_EARLY_EVENTS = 50;

export interface ScreeningInput {
  apiType: ApiType;
  chain: string;
  target: string;
  referenceId?: string;
  crawlTimeoutMs?: number;
  /** A policy id or 'standard'; undefined: the account's default. */
  policyId?: string;
}

interface KeptState {
  jobs: Submission[];
  selectedId: string | null;
}

/**
 * The submissions outlive the panel (switching to Activity and back keeps them) but not the page, like
 * the key itself; kept per account so signing in as someone else in this tab starts empty.
 */
const keptByAccount = new Map<string, KeptState>();

const jobPath = (id: string) => `/api/v1/kyt/job/${encodeURIComponent(id)}`;

/** A finished job never goes back to queued, whatever order the socket event and a read arrive in. */
const advance = (current: JobStatus, next: JobStatus): JobStatus => (current === 'queued' ? next : current);

function requestBody(input: ScreeningInput): Record<string, unknown> {
  return {
    chain: input.chain,
    ...(input.apiType === 'KYA' ? { address: input.target } : { txid: input.target }),
    ...(input.referenceId ? { reference_id: input.referenceId } : {}),
    ...(input.crawlTimeoutMs !== undefined ? { crawlTimeout: input.crawlTimeoutMs } : {}),
    ...(input.policyId ? { policy_id: input.policyId } : {}),
  };
}

/**
 * This tab's screening jobs, followed live: the status comes from `job_status_changed` on the socket,
 * never from a polling loop. A job is read at most twice while the panel is open: once right after the
 * submit (covers an event sent while the socket was reconnecting) and once for the full response when
 * it has finished. An event that overtakes the submit's own answer is kept until the answer names its
 * job. Unfinished jobs are read once more only when the socket reconnects or the panel is reopened,
 * since events sent meanwhile were not heard.
 */
export function useScreeningJobs() {
  const { api, socket, me } = useSession();
  const [state, setState] = useState<KeptState>(() => keptByAccount.get(me.id) ?? { jobs: [], selectedId: null });
  const stateRef = useRef(state);
  stateRef.current = state;
  const known = useRef(new Set(state.jobs.map((j) => j.requestId)));
  const early = useRef(new Map<string, JobStatus>());
  const outcomeRequested = useRef(new Set<string>());

  useEffect(() => void keptByAccount.set(me.id, state), [me.id, state]);

  const update = useCallback((id: string, change: (job: Submission) => Submission) => {
    setState((prev) => ({ ...prev, jobs: prev.jobs.map((job) => (job.requestId === id ? change(job) : job)) }));
  }, []);

  const loadOutcome = useCallback(
    async (id: string) => {
      if (outcomeRequested.current.has(id)) return;
      outcomeRequested.current.add(id);
      try {
        const body = await api.get<{ data: JobView }>(`${jobPath(id)}/fullresponse`);
        update(id, (job) => ({
          ...job,
          status: advance(job.status, body.data.status),
          outcome: body.data,
          outcomeError: undefined,
        }));
      } catch (err) {
        update(id, (job) => ({ ...job, outcomeError: err }));
      }
    },
    [api, update],
  );

  const applyStatus = useCallback(
    (id: string, status: JobStatus) => {
      update(id, (job) => ({ ...job, status: advance(job.status, status) }));
      if (status !== 'queued') void loadOutcome(id);
    },
    [update, loadOutcome],
  );

  const readStatus = useCallback(
    async (id: string) => {
      try {
        applyStatus(id, (await api.get<{ data: JobView }>(jobPath(id))).data.status);
      } catch {
        // The next event or the next reconnect will tell; the status stays as last known.
      }
    },
    [api, applyStatus],
  );

  const onStatusChanged = useCallback(
    (event: JobStatusEvent) => {
      if (known.current.has(event.request_id)) return applyStatus(event.request_id, event.status);
      early.current.set(event.request_id, event.status);
      if (early.current.size > KEPT_EARLY_EVENTS) early.current.delete(early.current.keys().next().value as string);
    },
    [applyStatus],
  );
  useRealtimeEvent(socket, 'job_status_changed', onStatusChanged);

  // Reopened panel: catch up on what was missed while it was closed (once per job, not a loop).
  useEffect(() => {
    for (const job of stateRef.current.jobs) {
      if (job.status === 'queued') void readStatus(job.requestId);
      else if (!job.outcome) void loadOutcome(job.requestId);
    }
  }, [readStatus, loadOutcome]);

  // After a reconnect, events sent while the socket was away are lost: read each unfinished job once.
  useEffect(() => {
    if (!socket) return undefined;
    let connectedBefore = socket.connected;
    const onConnect = () => {
      if (connectedBefore)
        for (const job of stateRef.current.jobs) if (job.status === 'queued') void readStatus(job.requestId);
      connectedBefore = true;
    };
    socket.on('connect', onConnect);
    return () => void socket.off('connect', onConnect);
  }, [socket, readStatus]);

  /** Submits a job and shows it; throws the API's refusal (402, 400, 422, 503) as an ApiError in words. */
  const submit = useCallback(
    async (input: ScreeningInput): Promise<void> => {
      const answer = await api.post<{ data: SubmittedJob }>('/api/v1/kyt/job', requestBody(input));
      const id = answer.data.request_id;
      known.current.add(id);
      const submission: Submission = {
        requestId: id,
        apiType: input.apiType,
        chain: input.chain,
        target: input.target,
        referenceId: answer.data.reference_id,
        status: answer.data.status,
        submittedAt: answer.data.created_at,
      };
      setState((prev) => ({ jobs: [submission, ...prev.jobs].slice(0, KEPT_SUBMISSIONS), selectedId: id }));
      const raced = early.current.get(id);
      if (raced) {
        early.current.delete(id);
        applyStatus(id, raced);
      } else void readStatus(id);
    },
    [api, applyStatus, readStatus],
  );

  const select = useCallback((id: string) => setState((prev) => ({ ...prev, selectedId: id })), []);
  const selected = state.jobs.find((j) => j.requestId === state.selectedId) ?? null;
  return { jobs: state.jobs, selected, submit, select };
}
