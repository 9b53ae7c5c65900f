import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { readOrgClaim, type OrgClaim } from './org-claims';

/** The claims of a Clerk session token that this service relies on. */
export interface ClerkSession {
  userId: string;
  sessionId: string | null;
  email: string | null;
  expiresAt: number;
  /** The organization the user acts in (v2 `o`, v1 `org_id`/`org_role`); absent: their own account. */
  org?: OrgClaim;
}

export class InvalidSessionTokenError extends Error {
  constructor(reason: string) {
    super(`invalid session token: ${reason}`);
    this.name = 'InvalidSessionTokenError';
  }
}

const CLOCK_SKEW_SECONDS = 5;

function decodeJson(part: string, what: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    /* fall through */
  }
  throw new InvalidSessionTokenError(`malformed ${what}`);
}

export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}

/** Issuers compare without a trailing slash: Clerk's `iss` has none, a configured URL may. */
const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * Clerk's networkless verification: RS256 over the PEM public key from the dashboard (CLERK_JWT_KEY).
 * Only RS256 is accepted, so an `alg: none` or HS256-with-the-public-key token cannot pass. With `issuer`
 * (CLERK_ISSUER) the token must come from that Clerk instance; with `authorizedParties`
 * (CLERK_AUTHORIZED_PARTIES) it must have been issued to one of our front ends: a token without `azp` is
 * refused too, because every session token a browser holds carries one (what lacks it, e.g. a token minted
 * server-side, is not a dashboard session). Production requires both settings (src/platform/config.ts).
 */
export function createClerkSessionVerifier(options: {
  publicKeyPem: string;
  authorizedParties: readonly string[];
  issuer?: string;
  now?: () => number;
}) {
  const key: KeyObject = createPublicKey(options.publicKeyPem.replace(/\\n/g, '\n'));
  const now = options.now ?? (() => Date.now());
  const issuer = options.issuer === undefined ? undefined : withoutTrailingSlash(options.issuer);

  return function verifySessionToken(token: string): ClerkSession {
    const parts = token.split('.');
    if (parts.length !== 3) throw new InvalidSessionTokenError('not a JWT');
    const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
    const header = decodeJson(headerPart, 'header');
    if (header.alg !== 'RS256') throw new InvalidSessionTokenError(`algorithm ${String(header.alg)} is not accepted`);

    const signedInput = Buffer.from(`${headerPart}.${payloadPart}`, 'utf8');
    const signature = Buffer.from(signaturePart, 'base64url');
    if (!verify('RSA-SHA256', signedInput, key, signature)) throw new InvalidSessionTokenError('bad signature');

    const claims = decodeJson(payloadPart, 'payload');
    const nowSeconds = Math.floor(now() / 1000);
    if (typeof claims.exp !== 'number' || claims.exp + CLOCK_SKEW_SECONDS < nowSeconds) {
      throw new InvalidSessionTokenError('expired');
    }
    if (typeof claims.nbf === 'number' && claims.nbf - CLOCK_SKEW_SECONDS > nowSeconds) {
      throw new InvalidSessionTokenError('not yet valid');
    }
    if (typeof claims.sub !== 'string' || claims.sub.length === 0) throw new InvalidSessionTokenError('no subject');
    if (issuer !== undefined && (typeof claims.iss !== 'string' || withoutTrailingSlash(claims.iss) !== issuer)) {
      throw new InvalidSessionTokenError('unexpected issuer');
    }
    if (
      options.authorizedParties.length > 0 &&
      (typeof claims.azp !== 'string' || !options.authorizedParties.includes(claims.azp))
    ) {
      throw new InvalidSessionTokenError(typeof claims.azp === 'string' ? 'unauthorized party' : 'no authorized party');
    }
    const org = readOrgClaim(claims);
    return {
      userId: claims.sub,
      sessionId: typeof claims.sid === 'string' ? claims.sid : null,
      email: typeof claims.email === 'string' ? claims.email : null,
      expiresAt: claims.exp,
      ...(org ? { org } : {}),
    };
  };
}

export type VerifySessionToken = ReturnType<typeof createClerkSessionVerifier>;
