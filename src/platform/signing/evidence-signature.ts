import { z } from 'zod';
import { EVIDENCE_ALG } from './signing-jwk';

/** The JWS `typ` of evidence signatures: a verifier refuses a JWS made for something else with the same keys. */
export const EVIDENCE_TYP = 'chainscreen-evidence+jws';
export const EVIDENCE_CANONICALIZATION = 'RFC8785';

/** What an answer carries next to the object it vouches for. */
export const evidenceSignatureSchema = z
  .object({
    jws: z
      .string()
      .regex(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/)
      .meta({
        description:
          'Compact JWS with detached payload (RFC 7515 Appendix F): `<protected>..<signature>`. The payload is ' +
          'BASE64URL of the RFC 8785 canonical JSON of the signed member; put it between the dots to verify.',
      }),
    kid: z.string().meta({ description: 'The key that signed, published at /.well-known/jwks.json' }),
    alg: z.literal(EVIDENCE_ALG).meta({ description: 'Ed25519' }),
    signed: z.string().meta({ description: 'Which member of the same object is signed' }),
    canonicalization: z.literal(EVIDENCE_CANONICALIZATION).meta({ description: 'JSON Canonicalization Scheme' }),
  })
  .meta({ description: 'A signature that outlives the service: verifiable offline with the published public key' });
export type EvidenceSignature = z.output<typeof evidenceSignatureSchema>;
