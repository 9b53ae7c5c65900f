import { createPrivateKey, randomUUID, sign, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { Webhook } from 'svix';
import { createPayPalVerifier } from '../../src/billing/paypal/verifier';
import { recordSensitiveHeaders } from './run-log';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'webhooks');
export const fixture = (...parts: string[]): Buffer => readFileSync(path.join(FIXTURES, ...parts));
export const fixtureJson = <T = any>(...parts: string[]): T => JSON.parse(fixture(...parts).toString('utf8')) as T;

/** The shared identities of the constructed fixtures (fixtures README). */
export const FIXTURE_CLERK_USER = 'user_29w83sxmDNGwOuEthce5gg56FcC';
export const FIXTURE_SUBSCRIPTION = 'I-93KN4XGWD2R7';
export const PAYPAL_WEBHOOK_ID = '1JE4291016473214C';
export const PAYPAL_TEST_CERT_URL =
  'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-TESTFIX1';
export const PAYFAST_PASSPHRASE = 'jt7NOE43FZPn';
export const CLERK_SECRET = fixtureJson<{ signing_secret: string }>('clerk', '_manifest.json').signing_secret;

/** Environment of a stack whose webhook routes are configured with the fixtures' secrets. */
export const WEBHOOK_ENV = {
  CLERK_WEBHOOK_SECRET: CLERK_SECRET,
  PAYPAL_WEBHOOK_ID,
  PAYFAST_MERCHANT_ID: '10000100',
  PAYFAST_MERCHANT_KEY: '46f0cd694581a',
  PAYFAST_MERCHANT_PASSPHRASE: PAYFAST_PASSPHRASE,
};

/**
 * The PayPal verifier wired to the test PKI: cert URL → test leaf, trust anchor = test CA
 * (constructor injection only).
 */
export function testPayPalVerifier(options: { fetchCalls?: string[] } = {}) {
  return createPayPalVerifier({
    mode: 'sandbox',
    webhookId: PAYPAL_WEBHOOK_ID,
    fetchCert: async (url) => {
      options.fetchCalls?.push(url.href);
      if (url.href === PAYPAL_TEST_CERT_URL) return fixture('paypal', 'test-pki', 'leaf.pem').toString('utf8');
      throw new Error(`no certificate at ${url.href}`);
    },
    trustAnchors: [new X509Certificate(fixture('paypal', 'test-pki', 'ca.pem'))],
  });
}

export interface Delivery {
  body: Buffer;
  headers: Record<string, string>;
}

/** A PayPal event fixture exactly as signed. */
export const paypalFixture = (eventType: string): Delivery => ({
  body: fixture('paypal', 'events', `${eventType}.json`),
  headers: fixtureJson('paypal', 'events', `${eventType}.headers.json`),
});

/**
 * A fixture event re-labelled for another subscription and user (fresh event id), re-signed with the
 * test key: lets tests replay the fixture shapes without colliding with the fixture ids.
 */
export function paypalVariant(
  eventType: string,
  ids: { subscriptionId: string; clerkUserId: string; eventId?: string; mutate?: (body: any) => void },
): Delivery & { eventId: string } {
  const original = fixture('paypal', 'events', `${eventType}.json`).toString('utf8');
  const body = JSON.parse(
    original.split(FIXTURE_SUBSCRIPTION).join(ids.subscriptionId).split(FIXTURE_CLERK_USER).join(ids.clerkUserId),
  );
  body.id = ids.eventId ?? `WH-${randomUUID()}`;
  ids.mutate?.(body);
  return { ...signPayPal(JSON.stringify(body)), eventId: body.id };
}

/** Signs a PayPal body with the test leaf key, the way PayPal signs (for events the fixtures do not include). */
export function signPayPal(body: Buffer | string): Delivery {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const transmissionId = randomUUID();
  const time = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const message = `${transmissionId}|${time}|${PAYPAL_WEBHOOK_ID}|${crc32(bytes)}`;
  const key = createPrivateKey(fixture('paypal', 'test-pki', 'leaf.key'));
  return {
    body: bytes,
    headers: {
      'content-type': 'application/json',
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': PAYPAL_TEST_CERT_URL,
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': time,
      'paypal-transmission-sig': sign('sha256', Buffer.from(message), key).toString('base64'),
    },
  };
}

/** A PayFast ITN fixture exactly as posted. */
export const payfastFixture = (name: string): Delivery => ({
  body: fixture('payfast', 'events', `${name}.form.txt`),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

/** A Clerk fixture body re-signed now with the fixture secret (svix's own sign), so the 5-minute window holds. */
export function clerkDelivery(body: Buffer | string, options: { id?: string; atMs?: number } = {}): Delivery {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const id = options.id ?? `msg_${randomUUID().replace(/-/g, '')}`;
  const at = new Date(options.atMs ?? Date.now());
  return {
    body: bytes,
    headers: {
      'content-type': 'application/json',
      'svix-id': id,
      'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
      'svix-signature': new Webhook(CLERK_SECRET).sign(id, at, bytes),
    },
  };
}

/** POSTs exact bytes (never re-serialized) to the stack. */
export async function post(
  baseUrl: string,
  route: string,
  delivery: Delivery,
): Promise<{ status: number; body: any; text: string }> {
  recordSensitiveHeaders(delivery.headers);
  const res = await fetch(`${baseUrl}${route}`, {
    method: 'POST',
    headers: delivery.headers,
    body: new Uint8Array(delivery.body),
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* plain-text acknowledgement */
  }
  return { status: res.status, body, text };
}
