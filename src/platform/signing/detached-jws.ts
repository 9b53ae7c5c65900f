import { canonicalize } from 'json-canonicalize';
import { base64url, CompactSign, type CompactVerifyGetKey, compactVerify } from 'jose';
import type { CurrentSigningKey } from './key-ring';
import { EVIDENCE_ALG } from './signing-jwk';

const utf8 = new TextEncoder();

/** The RFC 8785 (JCS) text of a JSON value: keys sorted, no whitespace, ES number form. This is what is signed. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('nothing to sign: the value has no JSON form');
  return text;
}

/**
 * A compact JWS over `payload` with its payload part left empty (RFC 7515 Appendix F, detached content):
 * `<protected>..<signature>`. The verifier puts BASE64URL(payload) back between the dots. The standard
 * base64url payload (not RFC 7797's b64:false) keeps every JWS library able to verify it.
 */
export async function signDetached(payload: string, signer: CurrentSigningKey, typ: string): Promise<string> {
  const jws = await new CompactSign(utf8.encode(payload))
    .setProtectedHeader({ alg: EVIDENCE_ALG, kid: signer.kid, typ })
    .sign(signer.key);
  const [header, , signature] = jws.split('.');
  return `${header}..${signature}`;
}

export class InvalidSignature extends Error {}

/**
 * Verifies a detached compact JWS over `payload` with the key `getKey` resolves from its header (an unknown kid
 * throws). Only EdDSA and the expected `typ` are accepted; returns the kid that verified it.
 */
export async function verifyDetached(
  jws: string,
  payload: string,
  getKey: CompactVerifyGetKey,
  typ: string,
): Promise<{ kid: string }> {
  const parts = jws.split('.');
  if (parts.length !== 3 || parts[1] !== '')
    throw new InvalidSignature('not a detached compact JWS (<protected>..<signature>)');
  const attached = `${parts[0]}.${base64url.encode(payload)}.${parts[2]}`;
  const { protectedHeader } = await compactVerify(attached, getKey, { algorithms: [EVIDENCE_ALG] });
  if (protectedHeader.typ !== typ) throw new InvalidSignature(`typ is ${protectedHeader.typ}, expected ${typ}`);
  if (!protectedHeader.kid) throw new InvalidSignature('the protected header names no kid');
  return { kid: protectedHeader.kid };
}
