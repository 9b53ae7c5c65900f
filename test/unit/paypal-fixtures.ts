import { X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PayPalHeaders } from '../../src/billing/paypal/signature';
import { createPayPalVerifier, type PayPalVerifierDeps } from '../../src/billing/paypal/verifier';

/** Fixtures are read as bytes from test/fixtures only: every body file is exactly what was signed. */
const ROOT = join(__dirname, '../fixtures/webhooks/paypal');

export const fixture = (relative: string): Buffer => readFileSync(join(ROOT, relative));
export const fixtureText = (relative: string): string => fixture(relative).toString('utf8');
export const fixtureJson = <T>(relative: string): T => JSON.parse(fixtureText(relative)) as T;

interface Manifest {
  webhook_id: string;
  cert_url_in_headers: string;
  events: { file: string; event_type: string; crc32_decimal: number; signed_message: string }[];
}

export const manifest = fixtureJson<Manifest>('events/_manifest.json');
export const WEBHOOK_ID = manifest.webhook_id;
export const TEST_CERT_URL = manifest.cert_url_in_headers;

export const TEST_CA = new X509Certificate(fixture('test-pki/ca.pem'));
export const TEST_LEAF_PEM = fixtureText('test-pki/leaf.pem');
export const EVIL_PEM = fixtureText('test-pki/evil-selfsigned.pem');

/**
 * Inside the test leaf's validity (2000..2100), after the events' transmission times, and after evil-selfsigned.pem's
 * notBefore (2026-11-21T21:46:37Z), so that fixture is refused by the chain check rather than by its dates.
 */
export const TEST_NOW = new Date('2026-12-01T12:00:00Z');

export interface Delivery {
  headers: PayPalHeaders;
  rawBody: Buffer;
}

export const EVENT_TYPES = manifest.events.map((e) => e.event_type);

export const event = (type: string): Delivery => ({
  rawBody: fixture(`events/${type}.json`),
  headers: fixtureJson<PayPalHeaders>(`events/${type}.headers.json`),
});

export interface RealExpected {
  webhook_id: string;
  crc32_decimal: number;
  signed_message: string;
}

export const REAL_VECTORS = readdirSync(join(ROOT, 'real-signed')).sort();

export const realVector = (dir: string) => ({
  rawBody: fixture(`real-signed/${dir}/body.json`),
  headers: fixtureJson<Record<string, string>>(`real-signed/${dir}/headers.json`),
  certPem: fixtureText(`real-signed/${dir}/cert.pem`),
  expected: fixtureJson<RealExpected>(`real-signed/${dir}/expected.json`),
});

/** A verifier wired like the tests need it, plus a record of every URL the cert fetcher was asked for. */
export function testVerifier(
  overrides: Partial<PayPalVerifierDeps> = {},
  pemFor: (url: URL) => Promise<string> = async () => TEST_LEAF_PEM,
) {
  const fetched: string[] = [];
  const verifier = createPayPalVerifier({
    mode: 'sandbox',
    webhookId: WEBHOOK_ID,
    trustAnchors: [TEST_CA],
    now: () => TEST_NOW,
    fetchCert: (url) => {
      fetched.push(url.href);
      return pemFor(url);
    },
    ...overrides,
  });
  return { verifier, fetched };
}

/** The rejection a promise ends with; fails the test if it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection, but it resolved');
}
