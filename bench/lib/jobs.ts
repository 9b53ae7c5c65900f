import type { RecordingSocket } from '../../test/helpers/realtime-client';
import type { TestStack } from '../../test/helpers/test-stack';

/**
 * A reference-data-only KYA (no bitcoin node is configured on the bench stack): the whole job path (hold,
 * workflow, analysis against the reference data, charge, history entry, mirror) without a chain's latency.
 */
export const BENCH_JOB = { chain: 'bitcoin', address: '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h' };

/**
 * Submits one job and waits for its `job_status_changed` on the owner's socket (pushed in the
 * mirror's transaction, so it is the moment a client can see `completed`; no polling load added).
 * Returns the submit (202) and submit→completed times; a job that fails fails the run.
 * `body`: BENCH_JOB unless given.
 */
export async function submitAndAwaitCompletion(
  stack: Pick<TestStack, 'http'>,
  key: string,
  socket: RecordingSocket,
  body: object = BENCH_JOB,
): Promise<{ requestId: string; submitMs: number; totalMs: number }> {
  const t0 = performance.now();
  const res = await stack.http('POST', '/api/v1/kyt/job', { key, body });
  const submitMs = performance.now() - t0;
  if (res.status !== 202) throw new Error(`submit answered ${res.status}: ${JSON.stringify(res.body)}`);
  const requestId: string = res.body.data.request_id;
  const done = await socket.waitFor(
    'job_status_changed',
    (p) => p.request_id === requestId && p.status !== 'queued',
    120_000,
  );
  const totalMs = performance.now() - t0;
  if (done.status !== 'completed') {
    const job = await stack.http('GET', `/api/v1/kyt/job/${requestId}`, { key });
    throw new Error(
      `job ${requestId} ended ${done.status}: ${JSON.stringify(job.body?.data?.error ?? done.error_code)}`,
    );
  }
  return { requestId, submitMs, totalMs };
}
