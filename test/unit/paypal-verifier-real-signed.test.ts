import { X509Certificate } from 'node:crypto';
import { defaultTrustAnchors, loadPinnedIntermediates } from '../../src/billing/paypal/certificates';
import { WebhookSignatureError } from '../../src/billing/paypal/errors';
import { rejection, REAL_VECTORS, realVector, testVerifier } from './paypal-fixtures';

/**
 * Full path on the three PayPal-signed vectors. These leaves are real PayPal/DigiCert certificates, so instead of
 * trusting the leaf itself we use the production trust material: Node's roots as anchors plus the pinned DigiCert
 * SHA2 EV intermediate from data/paypal (provenance in its SOURCES.md). The chain leaf → intermediate →
 * "DigiCert High Assurance EV Root CA" is then checked for real; only the clock is injected, because the leaves
 * expired in 2017/2019.
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
      {
        webhookId: vector.expected.webhook_id,
        trustAnchors: defaultTrustAnchors(),
        intermediates: loadPinnedIntermediates(),
        now: () => now,
      },
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
    await expect(verifier.verify({ headers: vector.headers, rawBody: vector.rawBody })).rejects.toThrow(
      /does not chain/,
    );
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
