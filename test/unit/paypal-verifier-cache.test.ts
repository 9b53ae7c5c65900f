import { VerificationUnavailableError } from '../../src/billing/paypal/errors';
import { event, TEST_CERT_URL, TEST_LEAF_PEM, TEST_NOW, testVerifier } from './paypal-fixtures';

const ACTIVATED = event('BILLING.SUBSCRIPTION.ACTIVATED');

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

  it('remembers a failed fetch for the TTL: deliveries within it do not fetch, the first after it does', async () => {
    let now = TEST_NOW;
    let calls = 0;
    const { verifier, fetched } = testVerifier({ now: () => now, certFailureTtlMs: 60_000 }, async () => {
      calls += 1;
      if (calls === 1) throw new Error('ETIMEDOUT');
      return TEST_LEAF_PEM;
    });
    await expect(verifier.verify(ACTIVATED)).rejects.toBeInstanceOf(VerificationUnavailableError);
    now = new Date(TEST_NOW.getTime() + 59_999);
    await expect(verifier.verify(ACTIVATED)).rejects.toBeInstanceOf(VerificationUnavailableError);
    expect(fetched).toHaveLength(1);
    now = new Date(TEST_NOW.getTime() + 60_000);
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

  it('treats an unparsable PEM as unavailable (503), not as a forgery, and fetches again after the TTL', async () => {
    let now = TEST_NOW;
    let body = '<html>maintenance</html>';
    const { verifier, fetched } = testVerifier({ now: () => now, certFailureTtlMs: 1_000 }, async () => body);
    await expect(verifier.verify(ACTIVATED)).rejects.toBeInstanceOf(VerificationUnavailableError);
    body = TEST_LEAF_PEM;
    now = new Date(TEST_NOW.getTime() + 1_000);
    await expect(verifier.verify(ACTIVATED)).resolves.toBeUndefined();
    expect(fetched).toHaveLength(2);
  });
});
