import { polledDataText } from './job-views';
import type { PolledJobRecord } from './jobs-store';
import type { PollSignatures } from './poll-signatures';

/**
 * The poll answer; a completed job's also carries `signature`: a detached JWS over the RFC 8785 canonical JSON of
 * its whole `data` as sent but that signature (request id, reference, completion time, credits charged and the
 * response with the list versions it was screened against), its protected header binding the request id, the
 * canonicalization and that `data` is what is signed, so the customer can prove to an auditor, long after, what was
 * answered and when. Queued and failed jobs answer nothing to vouch for, and carry none.
 */
export async function signedPollDataText(job: PolledJobRecord, signatures: PollSignatures): Promise<string> {
  const data = polledDataText(job);
  if (job.status !== 'completed') return data;
  return `${data.slice(0, -1)},"signature":${JSON.stringify(await signatures.sign(data))}}`;
}
