import { createHash } from 'node:crypto';
import type { EvidenceSignature } from '../platform/signing/evidence-signature';
import type { EvidenceSigner, UnsignedAnswerData } from '../platform/signing/evidence-signer';

export interface PollSignatures {
  /**
   * The signature of a completed poll's `data` (its JSON text without `signature`), as `signer` gives it. Everything
   * the signature binds (the whole data, and its request id in the protected header) is in that text.
   */
  sign(dataText: string): Promise<EvidenceSignature>;
}

/** About 300 bytes an entry: a few MB at most. */
const MAX_ENTRIES = 10_000;
/**
 * The key ring's own refresh period (postgres-key-ring.ts): after a rotation, a poll answered from here carries the
 * retired kid no longer than a process that has not yet re-read the keys would sign with it. The retired key stays
 * published, so such an answer verifies either way.
 */
const TTL_MS = 30_000;

/**
 * A completed answer never changes and Ed25519 is deterministic, so the same `data` polled again gets the same
 * signature: kept here (by the SHA-256 of the text) instead of canonicalising and signing again, which costs more
 * than the rest of the poll. The key is all the signature depends on but the key ring: the request id the protected
 * header binds is the text's own `request_id`, and any change of the row changes the text, hence the entry.
 */
export function createPollSignatures(signer: EvidenceSigner, now: () => number = Date.now): PollSignatures {
  const entries = new Map<string, { signature: EvidenceSignature; signedAt: number }>();
  return {
    async sign(dataText) {
      const key = createHash('sha256').update(dataText, 'utf8').digest('base64');
      const hit = entries.get(key);
      if (hit && now() - hit.signedAt < TTL_MS) return hit.signature;
      // What is signed is the parsed `data`, canonicalised (RFC 8785): what a customer's verifier rebuilds from it.
      const signature = await signer.signAnswer(JSON.parse(dataText) as UnsignedAnswerData);
      entries.delete(key);
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      entries.set(key, { signature, signedAt: now() });
      return signature;
    },
  };
}
