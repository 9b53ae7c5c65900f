import { X509Certificate } from 'node:crypto';
import { VerificationUnavailableError, WebhookSignatureError } from '../../src/billing/paypal/errors';
import { FAILURE, json, postbackFor, TOKEN_PATH, useFakePayPal, VERIFY_PATH } from './paypal-fake-api';
import { event, fixture, rejection, TEST_LEAF_PEM, testVerifier } from './paypal-fixtures';

const ACTIVATED = event('BILLING.SUBSCRIPTION.ACTIVATED');
const fake = useFakePayPal();
const postback = () => postbackFor(fake);

describe('PayPal verifier with the postback fallback', () => {
  const unreachable = async (): Promise<string> => {
    throw new Error('connect ETIMEDOUT');
  };

  it('uses the postback when the certificate cannot be fetched, and accepts on SUCCESS', async () => {
    const { verifier, fetched } = testVerifier({ postback: postback() }, unreachable);
    await expect(verifier.verify(ACTIVATED)).resolves.toBeUndefined();
    expect(fetched).toHaveLength(1);
    expect(fake.paths()).toEqual([TOKEN_PATH, VERIFY_PATH]);
  });

  it('uses the postback when the fetched certificate cannot be parsed', async () => {
    const { verifier } = testVerifier({ postback: postback() }, async () => 'upstream error');
    await expect(verifier.verify(ACTIVATED)).resolves.toBeUndefined();
    expect(fake.paths()).toEqual([TOKEN_PATH, VERIFY_PATH]);
  });

  it('rejects with WebhookSignatureError when the postback answers FAILURE', async () => {
    fake.verifyReplies = [json(200, FAILURE)];
    const { verifier } = testVerifier({ postback: postback() }, unreachable);
    const err = await rejection(verifier.verify(ACTIVATED));
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect(err.message).toMatch(/FAILURE/);
  });

  it('rejects with VerificationUnavailableError when the postback answers 500', async () => {
    fake.verifyReplies = [json(500, '{}')];
    const { verifier } = testVerifier({ postback: postback() }, unreachable);
    await expect(verifier.verify(ACTIVATED)).rejects.toBeInstanceOf(VerificationUnavailableError);
  });

  it('rejects with VerificationUnavailableError when there is no postback', async () => {
    const { verifier } = testVerifier({}, unreachable);
    await expect(verifier.verify(ACTIVATED)).rejects.toBeInstanceOf(VerificationUnavailableError);
  });

  it('never asks the postback about a bad signature, an untrusted chain or a bad cert URL', async () => {
    const tampered = Buffer.from(ACTIVATED.rawBody.toString().replace('"9.99"', '"9.98"'));
    const badSignature = testVerifier({ postback: postback() }, async () => TEST_LEAF_PEM);
    await expect(badSignature.verifier.verify({ headers: ACTIVATED.headers, rawBody: tampered })).rejects.toThrow(
      /signature does not match/,
    );

    const unrelatedAnchor = new X509Certificate(fixture('real-signed/2015-05-18_PAYMENT.SALE.COMPLETED/cert.pem'));
    const untrusted = testVerifier({ postback: postback(), trustAnchors: [unrelatedAnchor] });
    await expect(untrusted.verifier.verify(ACTIVATED)).rejects.toThrow(/does not chain/);

    const offDomain = { ...ACTIVATED.headers, 'paypal-cert-url': 'https://evil.example/v1/notifications/certs/X' };
    const badUrl = testVerifier({ postback: postback() }, unreachable);
    await expect(badUrl.verifier.verify({ headers: offDomain, rawBody: ACTIVATED.rawBody })).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );

    expect(fake.requests).toHaveLength(0);
  });
});
