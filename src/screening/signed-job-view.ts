import type { EvidenceSigner } from '../platform/signing/evidence-signer';
import { polledView } from './job-views';
import type { JobRecord } from './jobs-store';

/**
 * The poll answer; a completed job's also carries `signature`: a detached JWS over the RFC 8785 canonical JSON of
 * its whole `data` as sent but that signature (request id, reference, completion time, credits charged and the
 * response with the list versions it was screened against), so the customer can prove to an auditor, long after,
 * what was answered and when. Queued and failed jobs answer nothing to vouch for, and carry none.
 */
export async function signedPolledView(job: JobRecord, full: boolean, signer: EvidenceSigner) {
  const view = polledView(job, full);
  if (job.status !== 'completed') return view;
  return { ...view, signature: await signer.sign(view, 'data') };
}
