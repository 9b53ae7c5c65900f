import { X509Certificate } from 'node:crypto';
import { defaultTrustAnchors, loadPinnedIntermediates } from '../../src/webhooks/paypal/certificates';
import { VerificationUnavailableError, WebhookSignatureError } from '../../src/webhooks/paypal/errors';
import {
  EVENT_TYPES,
  EVIL_PEM,
  event,
  fixture,
  fixtureJson,
  rejection,
  REAL_VECTORS,
  realVector,
  TEST_CA,
  TEST_CERT_URL,
  TEST_LEAF_PEM,
  TEST_NOW,
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
    const err = await rejection(verifier.verify({ ...ACTIVATED, headers: { ...ACTIVATED.headers, 'paypal-cert-url': liveUrl } }));
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect(err.message).toMatch(/CN messageverificationcerts\.sandbox\.paypal\.com is not messageverificationcerts\.paypal\.com/);
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
    const headers = fixtureJson<Record<string, string>>('sandbox-captured/PAYMENT.SALE.COMPLETED_2023-09-07.headers.json');
    const { verifier, fetched } = testVerifier();
    const err = await rejection(verifier.verify({ headers, rawBody: fixture('sandbox-captured/PAYMENT.SALE.COMPLETED_2023-09-07.json') }));
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

/**
 * Full path on the three PayPal-signed vectors. These leaves are real PayPal/DigiCert certificates, so instead of
 * trusting the leaf itself we use the production trust material: Node's roots as anchors plus the pinned DigiCert
 * SHA2 EV intermediate from data/paypal (provenance in its SOURCES.md). The chain leaf → intermediate → "DigiCert High
 * Assurance EV Root CA" is then checked for real; only the clock is injected, because the leaves expired in 2017/2019.
 */
describe('PayPal verifier: real PayPal-signed vectors', () => {
  const CERTS_URL = 'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77';

  const realSetup = (dir: string, nowOffsetMs?: number) => {
    const vector = realVector(dir);
    const leaf = new X509Certificate(vector.certPem);
    const from = new Date(leaf.validFrom).getTime();
    const to = new Date(leaf.validTo).getTime();
    const now = new Date(nowOffsetMs === undefined ? (from + to) / 2 : to + nowOffsetMs);
    // The 2017 Java SDK vector carries a placeholder cert URL (/v1/notifications/test) that our allowlist refuses;
    // the URL is not part of the signed string, so a certs path is substituted for the full-path run.
    const headers = { ...vector.headers, 'paypal-cert-url': CERTS_URL };
    const { verifier, fetched } = testVerifier(
      { webhookId: vector.expected.webhook_id, trustAnchors: defaultTrustAnchors(), intermediates: loadPinnedIntermediates(), now: () => now },
      async () => vector.certPem,
    );
    return { vector, headers, verifier, fetched };
  };

  it.each(REAL_VECTORS)('%s: verifies with the clock inside the certificate validity', async (dir) => {
    const { vector, headers, verifier, fetched } = realSetup(dir);
    await expect(verifier.verify({ headers, rawBody: vector.rawBody })).resolves.toBeUndefined();
    expect(fetched).toEqual([CERTS_URL]);
  });

  it.each(REAL_VECTORS)('%s: rejected once the certificate has expired', async (dir) => {
    const { vector, headers, verifier } = realSetup(dir, 24 * 60 * 60 * 1000);
    const err = await rejection(verifier.verify({ headers, rawBody: vector.rawBody }));
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect(err.message).toMatch(/not valid now/);
  });

  it('rejects a real PayPal leaf when the DigiCert intermediate is not pinned', async () => {
    const dir = REAL_VECTORS[0]!;
    const vector = realVector(dir);
    const now = new Date('2016-01-01T00:00:00Z');
    const { verifier } = testVerifier(
      { webhookId: vector.expected.webhook_id, trustAnchors: defaultTrustAnchors(), now: () => now },
      async () => vector.certPem,
    );
    await expect(verifier.verify({ headers: vector.headers, rawBody: vector.rawBody })).rejects.toThrow(/does not chain/);
  });

  it('builds the chain through an intermediate served in the fetched PEM after the leaf', async () => {
    const vector = realVector(REAL_VECTORS[0]!);
    const [intermediate] = loadPinnedIntermediates();
    const now = new Date('2016-01-01T00:00:00Z');
    const { verifier } = testVerifier(
      { webhookId: vector.expected.webhook_id, trustAnchors: defaultTrustAnchors(), intermediates: [], now: () => now },
      async () => `${vector.certPem}\n${intermediate!.toString()}`,
    );
    await expect(verifier.verify({ headers: vector.headers, rawBody: vector.rawBody })).resolves.toBeUndefined();
  });

  it('the 2017 vector as published (placeholder cert URL) is rejected before any fetch', async () => {
    const dir = REAL_VECTORS.find((d) => d.includes('2017'))!;
    const { vector, verifier, fetched } = realSetup(dir);
    const err = await rejection(verifier.verify({ headers: vector.headers, rawBody: vector.rawBody }));
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect(fetched).toHaveLength(0);
  });
});

describe('PayPal verifier: certificate cache', () => {
  it('20 concurrent deliveries fetch the certificate once, and later ones use the cache', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { verifier, fetched } = testVerifier({}, async () => {
      await gate;
      return TEST_LEAF_PEM;
    });
    const all = Promise.all(Array.from({ length: 20 }, () => verifier.verify(ACTIVATED)));
    release();
    await expect(all).resolves.toHaveLength(20);
    await verifier.verify(event('PAYMENT.SALE.COMPLETED'));
    expect(fetched).toEqual([TEST_CERT_URL]);
  });

  it('does not cache a failed fetch: the next delivery fetches again', async () => {
    let calls = 0;
    const { verifier, fetched } = testVerifier({}, async () => {
      calls += 1;
      if (calls === 1) throw new Error('ETIMEDOUT');
      return TEST_LEAF_PEM;
    });
    await expect(verifier.verify(ACTIVATED)).rejects.toBeInstanceOf(VerificationUnavailableError);
    await expect(verifier.verify(ACTIVATED)).resolves.toBeUndefined();
    expect(fetched).toHaveLength(2);
  });

  it('fetches again after 24 hours (injected clock)', async () => {
    let now = TEST_NOW;
    const { verifier, fetched } = testVerifier({ now: () => now });
    await verifier.verify(ACTIVATED);
    now = new Date(TEST_NOW.getTime() + 23 * 60 * 60 * 1000);
    await verifier.verify(ACTIVATED);
    expect(fetched).toHaveLength(1);
    now = new Date(TEST_NOW.getTime() + 24 * 60 * 60 * 1000 + 1);
    await verifier.verify(ACTIVATED);
    expect(fetched).toHaveLength(2);
  });

  it('keys the cache by the exact URL string', async () => {
    const { verifier, fetched } = testVerifier();
    await verifier.verify(ACTIVATED);
    const other = 'https://api-m.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-TESTFIX1';
    await verifier.verify({ ...ACTIVATED, headers: { ...ACTIVATED.headers, 'paypal-cert-url': other } });
    expect(fetched).toEqual([TEST_CERT_URL, other]);
  });

  it('treats an unparsable PEM as unavailable (503), not as a forgery, and does not cache it', async () => {
    let body = '<html>maintenance</html>';
    const { verifier, fetched } = testVerifier({}, async () => body);
    await expect(verifier.verify(ACTIVATED)).rejects.toBeInstanceOf(VerificationUnavailableError);
    body = TEST_LEAF_PEM;
    await expect(verifier.verify(ACTIVATED)).resolves.toBeUndefined();
    expect(fetched).toHaveLength(2);
  });
});
