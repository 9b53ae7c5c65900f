import { z } from 'zod';
import { EVIDENCE_ALG } from './signing-jwk';

/** The JWS `typ` of evidence signatures: a verifier refuses a JWS made for something else with the same keys. */
export const EVIDENCE_TYP = 'chainscreen-evidence+jws';
export const EVIDENCE_CANONICALIZATION = 'RFC8785';
/** What an evidence signature covers: an answer's whole `data` without its `signature` member, and nothing else. */
export const EVIDENCE_SIGNED = 'data';

/**
 * The extension parameters of the protected header, each listed in `crit` (RFC 7515 §4.1.11): a verifier that does
 * not know them must refuse the JWS rather than ignore what they bind. What they bind is signed with the answer, so
 * no unsigned field beside the signature can say what it covers:
 * - `request_id`: the answer's own `data.request_id`;
 * - `canon`: how the payload was made from `data` (RFC 8785);
 * - `signed`: what was signed (`data`, never one of its members).
 */
export const EVIDENCE_CRIT = ['request_id', 'canon', 'signed'] as const;

/** Exactly the protected header of an evidence signature: any other member (`b64`, `jwk`, `jku`, …) is refused. */
export const evidenceProtectedHeaderSchema = z.strictObject({
  alg: z.literal(EVIDENCE_ALG),
  kid: z.string().min(1),
  typ: z.literal(EVIDENCE_TYP),
  crit: z
    .array(z.string())
    .refine(
      (crit) => crit.length === EVIDENCE_CRIT.length && EVIDENCE_CRIT.every((name) => crit.includes(name)),
      `crit must list exactly ${EVIDENCE_CRIT.join(', ')}`,
    ),
  request_id: z.string().min(1),
  canon: z.literal(EVIDENCE_CANONICALIZATION),
  signed: z.literal(EVIDENCE_SIGNED),
});
export type EvidenceProtectedHeader = z.output<typeof evidenceProtectedHeaderSchema>;

/** The protected header of the signature over the answer `requestId`, signed by `kid`. */
export function evidenceProtectedHeader(kid: string, requestId: string): EvidenceProtectedHeader {
  return {
    alg: EVIDENCE_ALG,
    kid,
    typ: EVIDENCE_TYP,
    crit: [...EVIDENCE_CRIT],
    request_id: requestId,
    canon: EVIDENCE_CANONICALIZATION,
    signed: EVIDENCE_SIGNED,
  };
}

/**
 * What an answer carries next to the object it vouches for. Only `jws` is evidence: `kid`, `alg`, `signed` and
 * `canonicalization` are unsigned copies of its protected header, for reading; a verifier refuses an answer whose
 * copies disagree with the header and otherwise ignores them. No other member is allowed.
 */
export const evidenceSignatureSchema = z
  .strictObject({
    jws: z
      .string()
      .regex(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/)
      .meta({
        description:
          'Compact JWS with detached payload (RFC 7515 Appendix F): `<protected>..<signature>`. The payload is ' +
          'BASE64URL of the RFC 8785 canonical JSON of `data` without `signature`; put it between the dots to ' +
          'verify. The protected header binds `typ` `chainscreen-evidence+jws`, `request_id` (equal to ' +
          '`data.request_id`), `canon` `RFC8785` and `signed` `data`, all three listed in `crit`.',
      }),
    kid: z.string().meta({ description: "Copy of the protected header's kid: the key at /.well-known/jwks.json" }),
    alg: z.literal(EVIDENCE_ALG).meta({ description: "Copy of the protected header's alg: Ed25519" }),
    signed: z.string().meta({ description: "Copy of the protected header's `signed`: what is signed" }),
    canonicalization: z
      .literal(EVIDENCE_CANONICALIZATION)
      .meta({ description: "Copy of the protected header's `canon`: JSON Canonicalization Scheme" }),
  })
  .meta({ description: 'A signature that outlives the service: verifiable offline with the published public key' });
export type EvidenceSignature = z.output<typeof evidenceSignatureSchema>;
