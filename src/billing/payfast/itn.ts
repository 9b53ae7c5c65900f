import { createHash, timingSafeEqual } from 'node:crypto';
import { ItnFormatError } from './errors';
import { phpUrlencode } from './php-urlencode';

/** A PayFast Instant Transaction Notification as received, before any business checks. */
export interface ParsedItn {
  /** Every received pair (signature included) in the order PayFast sent them, decoded. */
  pairs: Array<[string, string]>;
  /** The same pairs by name (signature included). */
  fields: Record<string, string>;
  signature: string | null;
  /** All pairs except signature, received order, blanks kept, exactly as encoded on the wire. */
  signedParamString: string;
}

const SIGNATURE_FIELD = 'signature';
const MD5_HEX = /^[0-9a-fA-F]{32}$/;

// fatal: a body that is not UTF-8 cannot be re-encoded faithfully, so it is rejected instead of repaired.
// ignoreBOM: keep every byte so the raw-body signature candidate sees exactly what was posted.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function bodyText(rawBody: Buffer | string): string {
  if (typeof rawBody === 'string') return rawBody;
  try {
    return utf8.decode(rawBody);
  } catch {
    throw new ItnFormatError('ITN body is not valid UTF-8');
  }
}

function decodeComponent(raw: string, describe: () => string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    throw new ItnFormatError(`malformed percent-encoding in ${describe()}`);
  }
}

/**
 * Parses an application/x-www-form-urlencoded ITN body, keeping order and blank values (both are part of the
 * signature). Throws ItnFormatError on malformed percent-encoding, an empty field name, or a repeated field name:
 * PayFast never repeats a field, and a repeat would make "which amount did we check" ambiguous.
 */
export function parseItn(rawBody: Buffer | string): ParsedItn {
  const pairs: Array<[string, string]> = [];
  // A prototype-less object so field names such as "__proto__" or "constructor" are plain data.
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  const signedSegments: string[] = [];
  let signature: string | null = null;

  // Empty segments ("a=1&&b=2", a trailing '&') carry no field; PHP's parser skips them too.
  const segments = bodyText(rawBody)
    .split('&')
    .filter((segment) => segment !== '');
  for (const [index, segment] of segments.entries()) {
    const eq = segment.indexOf('=');
    const rawKey = eq === -1 ? segment : segment.slice(0, eq);
    const rawValue = eq === -1 ? '' : segment.slice(eq + 1);
    const key = decodeComponent(rawKey, () => `the name of field #${index + 1}`);
    if (key === '') throw new ItnFormatError(`field #${index + 1} has an empty name`);
    if (Object.hasOwn(fields, key)) throw new ItnFormatError(`field "${key}" appears more than once`);
    const value = decodeComponent(rawValue, () => `the value of field "${key}"`);

    pairs.push([key, value]);
    fields[key] = value;
    if (key === SIGNATURE_FIELD) signature = value;
    else signedSegments.push(segment);
  }

  return { pairs, fields, signature, signedParamString: signedSegments.join('&') };
}

/** The body for PayFast's /eng/query/validate: every received pair except signature, never the passphrase. */
export function itnParamStringForValidation(rawBody: Buffer | string): string {
  return parseItn(rawBody).signedParamString;
}

function phpReencoded(pairs: ReadonlyArray<[string, string]>): string {
  return pairs
    .filter(([key]) => key !== SIGNATURE_FIELD)
    .map(([key, value]) => `${phpUrlencode(key)}=${phpUrlencode(value)}`)
    .join('&');
}

function withPassphrase(paramString: string, passphrase: string | undefined): string {
  return passphrase ? `${paramString}&passphrase=${phpUrlencode(passphrase)}` : paramString;
}

function md5(text: string): Buffer {
  return createHash('md5').update(text, 'utf8').digest();
}

/**
 * Checks the ITN's MD5 signature. Two renderings of the signed string are tried, and either may match:
 *  1. the raw body minus the signature pair, i.e. exactly the bytes PayFast hashed (verified on every real ITN);
 *  2. the decoded pairs re-encoded with PHP urlencode, for a sender or proxy that re-encodes equivalently.
 * Both still need the passphrase, so accepting either does not weaken the check. An empty passphrase counts as
 * none; without a passphrase the MD5 is only a checksum anyone can compute, which is why callers should require one.
 * A body that parseItn rejects never verifies, so callers can parse a verified body without a try/catch.
 */
export function verifyItnSignature(rawBody: Buffer | string, passphrase: string | undefined): boolean {
  let itn: ParsedItn;
  try {
    itn = parseItn(rawBody);
  } catch (err) {
    if (err instanceof ItnFormatError) return false;
    throw err;
  }
  if (itn.signature === null || !MD5_HEX.test(itn.signature)) return false;
  // Hex decoding makes the comparison case-insensitive and gives equal-length buffers for timingSafeEqual.
  const received = Buffer.from(itn.signature, 'hex');

  const candidates = [itn.signedParamString, phpReencoded(itn.pairs)];
  let matched = false;
  // Both candidates are always computed and compared, so timing does not reveal which rendering matched.
  for (const candidate of candidates) {
    if (timingSafeEqual(md5(withPassphrase(candidate, passphrase)), received)) matched = true;
  }
  return matched;
}
