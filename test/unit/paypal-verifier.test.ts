import { defaultTrustAnchors } from '../../src/billing/paypal/certificates';
import { WebhookSignatureError } from '../../src/billing/paypal/errors';
import {
  EVENT_TYPES,
  EVIL_PEM,
  event,
  fixture,
  fixtureJson,
  rejection,
  TEST_CA,
  TEST_CERT_URL,
  testVerifier,
} from './paypal-fixtures';

const ACTIVATED = event('BILLING.SUBSCRIPTION.ACTIVATED');

describe('PayPal verifier: the five app events (test PKI)', () => {
  it.each(EVENT_TYPES)('%s verifies', async (type) => {
    const { verifier, fetched } = testVerifier();
    await expect(verifier.verify(event(type))).resolves.toBeUndefined();
    expect(fetched).toEqual([TEST_CERT_URL]);
  });

  it('accepts header names in any case', async () => {
    const { verifier } = testVerifier();
    const headers = Object.fromEntries(Object.entries(ACTIVATED.headers).map(([k, v]) => [k.toUpperCase(), v]));
    await expect(verifier.verify({ headers, rawBody: ACTIVATED.rawBody })).resolves.toBeUndefined();
  });
});

describe('PayPal verifier: rejections', () => {
  it('rejects a body with one byte changed (9.99 -> 9.98)', async () => {
    const tampered = Buffer.from(ACTIVATED.rawBody.toString('utf8').replace('"9.99"', '"9.98"'), 'utf8');
    expect(tampered.equals(ACTIVATED.rawBody)).toBe(false);
    const { verifier } = testVerifier();
    const err = await rejection(verifier.verify({ headers: ACTIVATED.headers, rawBody: tampered }));
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect(err.message).toMatch(/signature does not match/);
  });

  it('rejects when our configured webhook id differs from the one PayPal signed for', async () => {
    const { verifier } = testVerifier({ webhookId: '8PT597110X687430LKGECATA' });
    const err = await rejection(verifier.verify(ACTIVATED));
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect(err.message).toMatch(/signature does not match/);
  });

  it('rejects a sandbox cert URL in live mode before fetching anything', async () => {
    const { verifier, fetched } = testVerifier({ mode: 'live' });
    const err = await rejection(verifier.verify(ACTIVATED));
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect(err.message).toMatch(/not a PayPal live certificate host/);
    expect(fetched).toHaveLength(0);
  });

  it('rejects a sandbox signing certificate served for a live URL (CN must match the mode)', async () => {
    const liveUrl = 'https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-TESTFIX1';
    const { verifier, fetched } = testVerifier({ mode: 'live' });
    const err = await rejection(
      verifier.verify({ ...ACTIVATED, headers: { ...ACTIVATED.headers, 'paypal-cert-url': liveUrl } }),
    );
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect(err.message).toMatch(
      /CN messageverificationcerts\.sandbox\.paypal\.com is not messageverificationcerts\.paypal\.com/,
    );
    expect(fetched).toEqual([liveUrl]);
  });

  it('rejects another auth algorithm before fetching anything', async () => {
    const { verifier, fetched } = testVerifier();
    const headers = { ...ACTIVATED.headers, 'paypal-auth-algo': 'SHA512withRSA' };
    const err = await rejection(verifier.verify({ headers, rawBody: ACTIVATED.rawBody }));
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect(fetched).toHaveLength(0);
  });

  it('rejects the unsigned simulator template for its missing headers', async () => {
    const { verifier, fetched } = testVerifier();
    const rawBody = fixture('simulator/BILLING.SUBSCRIPTION.ACTIVATED.json');
    const err = await rejection(verifier.verify({ headers: { 'content-type': 'application/json' }, rawBody }));
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect(err.message).toMatch(/paypal-transmission-id header is missing/);
    expect(fetched).toHaveLength(0);
  });

  it('rejects the re-serialized sandbox capture (CRC no longer matches what PayPal signed)', async () => {
    const headers = fixtureJson<Record<string, string>>(
      'sandbox-captured/PAYMENT.SALE.COMPLETED_2023-09-07.headers.json',
    );
    const { verifier, fetched } = testVerifier();
    const err = await rejection(
      verifier.verify({ headers, rawBody: fixture('sandbox-captured/PAYMENT.SALE.COMPLETED_2023-09-07.json') }),
    );
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect(err.message).toMatch(/signature does not match/);
    expect(fetched).toEqual([headers['paypal-cert-url']]);
  });

  it('refuses to be built without a webhook id or trust anchors', () => {
    expect(() => testVerifier({ webhookId: ' ' })).toThrow(/webhook id/);
    expect(() => testVerifier({ trustAnchors: [] })).toThrow(/trust anchor/);
  });
});

describe('PayPal verifier: paypal/negative fixtures', () => {
  const readme = fixtureJson<{ cases: Record<string, string> }>('negative/README.json');
  const negative = (name: string) => ({
    headers: fixtureJson<Record<string, string>>(`negative/ACTIVATED.${name}.headers.json`),
    rawBody: ACTIVATED.rawBody,
  });

  it('covers every case the README lists', () => {
    expect(Object.keys(readme.cases).sort()).toEqual(
      ['cert-url-http', 'cert-url-off-domain', 'cert-url-userinfo-trick', 'signed-by-untrusted-selfsigned'].sort(),
    );
  });

  it('signed-by-untrusted-selfsigned: rejected at the chain check', async () => {
    const { verifier, fetched } = testVerifier({}, async () => EVIL_PEM);
    const err = await rejection(verifier.verify(negative('signed-by-untrusted-selfsigned')));
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect(err.message).toMatch(/does not chain to a trusted CA/);
    expect(fetched).toEqual([TEST_CERT_URL]);
  });

  it.each([
    ['cert-url-off-domain', /not a PayPal sandbox certificate host/],
    ['cert-url-http', /not https/],
    ['cert-url-userinfo-trick', /credentials/],
  ])('%s: rejected without ever calling the fetcher', async (name, reason) => {
    const { verifier, fetched } = testVerifier({}, async () => EVIL_PEM);
    const err = await rejection(verifier.verify(negative(name)));
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect(err.message).toMatch(reason);
    expect(fetched).toHaveLength(0);
  });
});

describe('PayPal verifier: certificate validity and chain (test PKI)', () => {
  it('rejects when the clock is outside the leaf validity', async () => {
    for (const now of [new Date('1999-12-31T00:00:00Z'), new Date('2100-01-02T00:00:00Z')]) {
      const { verifier } = testVerifier({ now: () => now });
      const err = await rejection(verifier.verify(ACTIVATED));
      expect(err).toBeInstanceOf(WebhookSignatureError);
      expect(err.message).toMatch(/not valid now/);
    }
  });

  it('rejects the genuine test leaf when its CA is not a trust anchor', async () => {
    const { verifier } = testVerifier({ trustAnchors: defaultTrustAnchors() });
    const err = await rejection(verifier.verify(ACTIVATED));
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect(err.message).toMatch(/does not chain/);
  });

  it('does not take a pinned self-signed CA as trust: only anchors end a chain', async () => {
    const { verifier } = testVerifier({ trustAnchors: defaultTrustAnchors(), intermediates: [TEST_CA] });
    await expect(verifier.verify(ACTIVATED)).rejects.toThrow(/does not chain/);
  });
});
