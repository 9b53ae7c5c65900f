import { canonicalJson } from '../../platform/signing/detached-jws';
import type { EvidenceSignature } from '../../platform/signing/evidence-signature';
import type { EvidenceSigner, UnsignedAnswerData } from '../../platform/signing/evidence-signer';
import type { JobRecord } from '../../screening';

/**
 * One answer as a poll returns it: the signed payload (RFC 8785 text of its `data` without `signature`)
 * and the signature.
 */
export interface SignedAnswer {
  payload: string;
  signature: EvidenceSignature;
}

/** A completed job's two signed answers: GET /api/v1/kyt/job/{id} and GET /api/v1/kyt/job/{id}/fullresponse. */
export interface JobSignatures {
  poll: SignedAnswer;
  full: SignedAnswer;
}

export type JobAnswerSigner = (job: JobRecord) => Promise<JobSignatures | null>;

/**
 * A completed poll's `data` without its signature, as src/screening/job-views.ts `polledDataText` writes it: the
 * request id, status, reference, submission and completion times (Unix ms), the stored answer and the credits
 * charged. test/integration/case-file.test.ts holds the JWS signed over it equal to the one the poll returns.
 */
const pollData = (job: JobRecord, answer: unknown): UnsignedAnswerData => ({
  request_id: job.requestId,
  status: job.status,
  reference_id: job.referenceId,
  created_at: job.createdAt.getTime(),
  ...(job.completedAt ? { completed_at: job.completedAt.getTime() } : {}),
  response: answer ?? null,
  credits_charged: job.creditsCharged,
});

/**
 * Signs a job's answers as its polls do: the same `data`, the same evidence key, and Ed25519 is deterministic, so
 * the JWS printed in a case file is the string the poll returns. Queued and failed jobs carry no signature, as in
 * the poll.
 */
export function createJobAnswerSigner(signer: EvidenceSigner): JobAnswerSigner {
  const sign = async (data: UnsignedAnswerData): Promise<SignedAnswer> => ({
    payload: canonicalJson(data),
    signature: await signer.signAnswer(data),
  });
  return async (job) => {
    if (job.status !== 'completed') return null;
    const [poll, full] = await Promise.all([sign(pollData(job, job.response)), sign(pollData(job, job.fullResponse))]);
    return { poll, full };
  };
}
