import { canonicalize } from 'json-canonicalize';
import {
  base64url,
  type CompactJWSHeaderParameters,
  CompactSign,
  type CompactVerifyGetKey,
  type CryptoKey,
  compactVerify,
} from 'jose';

const utf8 = new TextEncoder();

/** The RFC 8785 (JCS) text of a JSON value: keys sorted, no whitespace, ES number form. This is what is signed. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('nothing to sign: the value has no JSON form');
  return text;
}

/** A JWS's `crit` extensions a signer or verifier knows, each required to sit in the protected header. */
type CritExtensions = readonly string[];
const critOption = (crit: CritExtensions) => Object.fromEntries(crit.map((name) => [name, true]));

/**
 * A compact JWS over `payload` with its payload part left empty (RFC 7515 Appendix F, detached content):
 * `<protected>..<signature>`. The verifier puts BASE64URL(payload) back between the dots. The standard
 * base64url payload (not RFC 7797's b64:false) keeps every JWS library able to verify it.
 */
export async function signDetached(
  payload: string,
  key: CryptoKey,
  header: CompactJWSHeaderParameters,
  crit: CritExtensions,
): Promise<string> {
  const jws = await new CompactSign(utf8.encode(payload))
    .setProtectedHeader(header)
    .sign(key, { crit: critOption(crit) });
  const [protectedPart, , signature] = jws.split('.');
  return `${protectedPart}..${signature}`;
}

export class InvalidSignature extends Error {}

/**
 * Verifies a detached compact JWS over `payload` with the key `getKey` resolves from its header, accepting only
 * `algorithms` and the `crit` extensions named (jose refuses any other listed in `crit`; that the named ones are
 * present is the caller's check on the returned header). Returns the verified protected header.
 */
export async function verifyDetached(
  jws: string,
  payload: string,
  getKey: CompactVerifyGetKey,
  options: { algorithms: readonly string[]; crit: CritExtensions },
): Promise<CompactJWSHeaderParameters> {
  const parts = jws.split('.');
  if (parts.length !== 3 || parts[1] !== '')
    throw new InvalidSignature('not a detached compact JWS (<protected>..<signature>)');
  const attached = `${parts[0]}.${base64url.encode(payload)}.${parts[2]}`;
  const { protectedHeader } = await compactVerify(attached, getKey, {
    algorithms: [...options.algorithms],
    crit: critOption(options.crit),
  });
  return protectedHeader;
}
