import { timingSafeEqual } from 'node:crypto';
import { Webhook } from 'svix';

/** The delivery is not from Clerk (or is a replay): the route answers 401 and does no work. */
export class ClerkSignatureError extends Error {
  constructor(reason: string) {
    super(`Clerk webhook rejected: ${reason}`);
    this.name = 'ClerkSignatureError';
  }
}

export interface ClerkDelivery {
  /** svix-id: the same on every retry of one message, so it is the de-duplication key. */
  id: string;
  timestampMs: number;
  event: { type: string; data: Record<string, unknown>; timestamp?: number };
  /** The headers the signature was checked with, under their svix-* names: the worker checks them again. */
  signedHeaders: ClerkSignedHeaders;
}

export interface ClerkSignedHeaders {
  'svix-id': string;
  'svix-timestamp': string;
  'svix-signature': string;
}

type Headers = Record<string, string | string[] | undefined>;

/** Svix's documented tolerance, in both directions. */
export const CLERK_TIMESTAMP_TOLERANCE_MS = 5 * 60 * 1000;

const header = (headers: Headers, ...names: string[]): string | undefined => {
  for (const name of names) {
    const value = headers[name];
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return undefined;
};

/**
 * Verifies a Clerk (Svix) delivery over the raw body: HMAC-SHA256 of `id.timestamp.body` with the
 * secret, any of several `v1,` signatures (secret rotation), timestamp within `maxAgeMs` (default 5 minutes)
 * of `now`; `maxAgeMs: null` skips that window (the worker re-checking a delivery the api accepted earlier).
 * The HMAC is svix's own `sign`; the clock is injected because svix's `verify` reads Date.now().
 * Headers: svix-* or the Standard Webhooks webhook-* names; X-Clerk-Webhook-Signature (the contract's
 * name) is accepted for svix-signature.
 */
export function createClerkVerifier(options: { secret: string; now?: () => number; maxAgeMs?: number | null }) {
  const webhook = new Webhook(options.secret);
  const now = options.now ?? Date.now;
  const maxAgeMs = options.maxAgeMs === undefined ? CLERK_TIMESTAMP_TOLERANCE_MS : options.maxAgeMs;

  return function verify(rawBody: Buffer, headers: Headers): ClerkDelivery {
    const id = header(headers, 'svix-id', 'webhook-id');
    const timestamp = header(headers, 'svix-timestamp', 'webhook-timestamp');
    const signatures = header(headers, 'svix-signature', 'webhook-signature', 'x-clerk-webhook-signature');
    if (!id || !timestamp || !signatures)
      throw new ClerkSignatureError('missing svix-id, svix-timestamp or svix-signature');
    if (!/^\d{1,12}$/.test(timestamp)) throw new ClerkSignatureError('svix-timestamp is not unix seconds');
    const timestampMs = Number(timestamp) * 1000;
    if (maxAgeMs !== null && Math.abs(now() - timestampMs) > maxAgeMs)
      throw new ClerkSignatureError('timestamp outside the 5-minute tolerance');

    const expected = Buffer.from(webhook.sign(id, new Date(timestampMs), rawBody).slice('v1,'.length));
    const matches = signatures
      .split(' ')
      .filter((entry) => entry.startsWith('v1,'))
      .some((entry) => {
        const given = Buffer.from(entry.slice('v1,'.length));
        return given.length === expected.length && timingSafeEqual(given, expected);
      });
    if (!matches) throw new ClerkSignatureError('no matching signature');

    let event: unknown;
    try {
      event = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new ClerkSignatureError('body is not JSON');
    }
    const e = event as ClerkDelivery['event'];
    if (!e || typeof e.type !== 'string' || typeof e.data !== 'object' || e.data === null) {
      throw new ClerkSignatureError('not a Clerk event');
    }
    return {
      id,
      timestampMs,
      event: e,
      signedHeaders: { 'svix-id': id, 'svix-timestamp': timestamp, 'svix-signature': signatures },
    };
  };
}

export type ClerkVerifier = ReturnType<typeof createClerkVerifier>;
