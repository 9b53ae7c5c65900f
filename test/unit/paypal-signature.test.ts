import { parsePayPalCertUrl } from '../../src/billing/paypal/cert-url';
import { WebhookSignatureError } from '../../src/billing/paypal/errors';
import { paypalSignedMessage, readPayPalTransmission, verifyPayPalSignature } from '../../src/billing/paypal/signature';
import {
  EVIL_PEM,
  event,
  fixture,
  fixtureJson,
  manifest,
  REAL_VECTORS,
  realVector,
  TEST_CERT_URL,
  TEST_LEAF_PEM,
  WEBHOOK_ID,
} from './paypal-fixtures';

const signedMessageOf = (headers: Record<string, string>, webhookId: string, rawBody: Buffer): string =>
  paypalSignedMessage(headers['paypal-transmission-id']!, headers['paypal-transmission-time']!, webhookId, rawBody);

describe('paypalSignedMessage', () => {
  it.each(manifest.events.map((e) => [e.event_type, e] as const))(
    '%s: equals the manifest signed string',
    (type, entry) => {
      const { rawBody, headers } = event(type);
      expect(signedMessageOf(headers as Record<string, string>, WEBHOOK_ID, rawBody)).toBe(entry.signed_message);
      expect(entry.signed_message.endsWith(`|${entry.crc32_decimal}`)).toBe(true);
    },
  );

  it.each(REAL_VECTORS)('%s: equals the signed string PayPal used (unsigned decimal CRC-32)', (dir) => {
    const { rawBody, headers, expected } = realVector(dir);
    expect(signedMessageOf(headers, expected.webhook_id, rawBody)).toBe(expected.signed_message);
  });

  it('uses the standard CRC-32 check value, written unsigned (0xCBF43926 is above 2^31)', () => {
    expect(paypalSignedMessage('id', 'time', 'hook', Buffer.from('123456789'))).toBe('id|time|hook|3421780262');
  });
});

describe('verifyPayPalSignature on PayPal-signed vectors', () => {
  it.each(REAL_VECTORS)('%s: verifies with the PayPal certificate', (dir) => {
    const { rawBody, headers, certPem, expected } = realVector(dir);
    const message = signedMessageOf(headers, expected.webhook_id, rawBody);
    expect(verifyPayPalSignature(certPem, message, headers['paypal-transmission-sig']!)).toBe(true);
    expect(verifyPayPalSignature(certPem, expected.signed_message, headers['paypal-transmission-sig']!)).toBe(true);
  });

  it.each(REAL_VECTORS)('%s: fails for a changed byte, another webhook id, or another key', (dir) => {
    const { rawBody, headers, certPem, expected } = realVector(dir);
    const sig = headers['paypal-transmission-sig']!;
    const tampered = Buffer.from(rawBody);
    const at = tampered.length - 2;
    tampered.writeUInt8(tampered.readUInt8(at) ^ 0x01, at);
    expect(verifyPayPalSignature(certPem, signedMessageOf(headers, expected.webhook_id, tampered), sig)).toBe(false);
    expect(verifyPayPalSignature(certPem, signedMessageOf(headers, 'WH-OTHER-ID', rawBody), sig)).toBe(false);
    expect(verifyPayPalSignature(TEST_LEAF_PEM, expected.signed_message, sig)).toBe(false);
  });

  it('is false, not a throw, for a corrupt certificate or signature', () => {
    const { expected, certPem } = realVector(REAL_VECTORS[0]!);
    expect(verifyPayPalSignature('not a pem', expected.signed_message, 'AAAA')).toBe(false);
    expect(verifyPayPalSignature(certPem, expected.signed_message, '')).toBe(false);
    expect(verifyPayPalSignature(certPem, expected.signed_message, '%%%not-base64')).toBe(false);
  });
});

describe('verifyPayPalSignature on the test-key events', () => {
  it.each(manifest.events.map((e) => [e.event_type, e.signed_message] as const))(
    '%s: verifies with the test leaf',
    (type, message) => {
      const { headers } = event(type);
      expect(verifyPayPalSignature(TEST_LEAF_PEM, message, headers['paypal-transmission-sig'] as string)).toBe(true);
    },
  );

  it('the untrusted self-signed fixture carries a valid signature (so only the chain check can stop it)', () => {
    const headers = fixtureJson<Record<string, string>>(
      'negative/ACTIVATED.signed-by-untrusted-selfsigned.headers.json',
    );
    const message = signedMessageOf(headers, WEBHOOK_ID, fixture('events/BILLING.SUBSCRIPTION.ACTIVATED.json'));
    expect(verifyPayPalSignature(EVIL_PEM, message, headers['paypal-transmission-sig']!)).toBe(true);
    expect(verifyPayPalSignature(TEST_LEAF_PEM, message, headers['paypal-transmission-sig']!)).toBe(false);
  });
});

describe('sandbox-captured delivery (body re-serialized after signing)', () => {
  const headers = fixtureJson<Record<string, string>>(
    'sandbox-captured/PAYMENT.SALE.COMPLETED_2023-09-07.headers.json',
  );
  const rawBody = fixture('sandbox-captured/PAYMENT.SALE.COMPLETED_2023-09-07.json');

  it('has every PayPal header, yet no certificate we hold verifies it', () => {
    const transmission = readPayPalTransmission(headers);
    expect(transmission.certUrl).toBe(
      'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-2d7ab011',
    );
    const message = signedMessageOf(headers, WEBHOOK_ID, rawBody);
    const certs = [TEST_LEAF_PEM, EVIL_PEM, ...REAL_VECTORS.map((dir) => realVector(dir).certPem)];
    for (const pem of certs) expect(verifyPayPalSignature(pem, message, transmission.transmissionSig)).toBe(false);
  });
});

describe('readPayPalTransmission', () => {
  const headers = event('BILLING.SUBSCRIPTION.ACTIVATED').headers as Record<string, string>;

  it('reads header names case-insensitively', () => {
    const shouted = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(readPayPalTransmission(shouted)).toEqual(readPayPalTransmission(headers));
  });

  it.each([
    'paypal-transmission-id',
    'paypal-transmission-time',
    'paypal-transmission-sig',
    'paypal-cert-url',
    'paypal-auth-algo',
  ])('rejects a delivery without %s', (name) => {
    const { [name]: _dropped, ...rest } = headers;
    expect(() => readPayPalTransmission(rest)).toThrow(WebhookSignatureError);
    expect(() => readPayPalTransmission({ ...rest, [name]: '' })).toThrow(`${name} header is missing`);
  });

  it('rejects a repeated header and any algorithm but SHA256withRSA', () => {
    expect(() => readPayPalTransmission({ ...headers, 'paypal-cert-url': [TEST_CERT_URL, TEST_CERT_URL] })).toThrow(
      /more than once/,
    );
    expect(() => readPayPalTransmission({ ...headers, 'paypal-auth-algo': 'SHA1withRSA' })).toThrow(
      /not SHA256withRSA/,
    );
    expect(() => readPayPalTransmission({ ...headers, 'paypal-auth-algo': 'sha256withrsa' })).toThrow(
      WebhookSignatureError,
    );
  });
});

describe('parsePayPalCertUrl', () => {
  const path = '/v1/notifications/certs/CERT-360caa42-fca2a594-TESTFIX1';

  it.each([
    ['sandbox', `https://api.sandbox.paypal.com${path}`],
    ['sandbox', `https://api-m.sandbox.paypal.com${path}`],
    ['sandbox', `https://API.SANDBOX.PAYPAL.COM:443${path}`],
    ['live', `https://api.paypal.com${path}`],
    ['live', `https://api-m.paypal.com${path}`],
  ] as const)('%s accepts %s', (mode, raw) => {
    expect(parsePayPalCertUrl(raw, mode).pathname).toBe(path);
  });

  it.each([
    ['live', `https://api.sandbox.paypal.com${path}`, /not a PayPal live certificate host/],
    ['sandbox', `https://api.paypal.com${path}`, /not a PayPal sandbox certificate host/],
    ['sandbox', `http://api.sandbox.paypal.com${path}`, /not https/],
    ['sandbox', `https://api.sandbox.paypal.com.evil.example${path}`, /not a PayPal sandbox certificate host/],
    ['sandbox', `https://api.sandbox.paypal.com@evil.example${path}`, /credentials/],
    ['sandbox', `https://user:pw@api.sandbox.paypal.com${path}`, /credentials/],
    ['sandbox', `https://api.sandbox.paypal.com:8443${path}`, /port/],
    ['sandbox', `https://api.sandbox.paypal.com.${path}`, /host/],
    ['sandbox', `https://evil.example/x?u=https://api.sandbox.paypal.com${path}`, /host/],
    ['sandbox', 'https://api.sandbox.paypal.com/v1/notifications/test', /certificate path/],
    ['sandbox', `https://api.sandbox.paypal.com${path}/../../../../oauth2/token`, /certificate path/],
    ['sandbox', `https://api.sandbox.paypal.com/v1/notifications/certs/%2e%2e/%2e%2e/x`, /certificate path/],
    ['sandbox', 'file:///etc/passwd', /not https/],
    ['sandbox', 'not a url', /not a URL/],
  ] as const)('%s rejects %s', (mode, raw, reason) => {
    expect(() => parsePayPalCertUrl(raw, mode)).toThrow(WebhookSignatureError);
    expect(() => parsePayPalCertUrl(raw, mode)).toThrow(reason);
  });
});
