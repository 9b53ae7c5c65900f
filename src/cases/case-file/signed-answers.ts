import { canonicalJson } from '../../platform/signing/detached-jws';
import type { EvidenceSignature } from '../../platform/signing/evidence-signature';
import type { EvidenceSigner } from '../../platform/signing/evidence-signer';
import type { JobRecord } from '../../screening';
import type { PolledJobRecord } from '../../screening/jobs-store';
import { createPollSignatures } from '../../screening/poll-signatures';
import { signedPollDataText } from '../../screening/signed-job-view';

/** One answer as a poll returns it: the signed payload (RFC 8785 text of its `data` without `signature`) and the signature. */
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

const polled = (job: JobRecord, answer: unknown): PolledJobRecord => ({
  requestId: job.requestId,
  status: job.status,
  referenceId: job.referenceId,
  createdAt: job.createdAt,
  completedAt: job.completedAt,
  creditsCharged: job.creditsCharged,
  error: job.error,
  answerText: answer == null ? null : JSON.stringify(answer),
});

/**
 * Signs a job's answers through the poll's own code (signed-job-view.ts), so the JWS printed in a case file is the
 * one the poll returns: Ed25519 is deterministic and the payload is the canonical JSON of the same `data`. Queued and
 * failed jobs carry no signature, as in the poll.
 */
export function createJobAnswerSigner(signer: EvidenceSigner): JobAnswerSigner {
  const signatures = createPollSignatures(signer);
  const sign = async (record: PolledJobRecord): Promise<SignedAnswer> => {
    const { signature, ...data } = JSON.parse(await signedPollDataText(record, signatures)) as {
      signature: EvidenceSignature;
    } & Record<string, unknown>;
    return { payload: canonicalJson(data), signature };
  };
  return async (job) => {
    if (job.status !== 'completed') return null;
    const [poll, full] = await Promise.all([sign(polled(job, job.response)), sign(polled(job, job.fullResponse))]);
    return { poll, full };
  };
}
