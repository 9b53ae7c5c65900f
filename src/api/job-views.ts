import type { JobRecord } from '../db/jobs';

/** Submit response `data` (spec 2.4). */
export const submittedView = (job: JobRecord) => ({
  request_id: job.requestId,
  status: job.status,
  reference_id: job.referenceId,
  created_at: job.createdAt.getTime(),
});

/** Poll response `data`: `response` only once completed; a failed job carries `error` instead (our extension). */
export function polledView(job: JobRecord, full = false) {
  return {
    request_id: job.requestId,
    status: job.status,
    reference_id: job.referenceId,
    created_at: job.createdAt.getTime(),
    ...(job.completedAt ? { completed_at: job.completedAt.getTime() } : {}),
    ...(job.status === 'completed' ? { response: full ? job.fullResponse : job.response, credits_charged: job.creditsCharged } : {}),
    ...(job.status === 'failed' ? { error: job.error, credits_charged: 0 } : {}),
  };
}
