/**
 * Forged PayPal deliveries cost nothing: a cert URL whose certificate cannot be loaded is remembered for a TTL
 * (no fetch per delivery), a URL PayPal's certificate host does not know is refused without any postback, the
 * authenticated postback fallback never goes beyond its budget, and every refusal is counted by reason.
 * The certificate host is a local HTTPS server presenting the test leaf (TLS and hostname checks run unmodified);
 * PayPal's API is the local fake of paypal-fake-api.ts.
 */
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { Agent, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { paypalDeliveriesRefused } from '../../src/billing/metrics/paypal-deliveries-refused';
import { VerificationUnavailableError, WebhookSignatureError } from '../../src/billing/paypal/errors';
import { fetchPayPalCertificate } from '../../src/billing/paypal/certificates';
import { createPayPalWebhookRouter } from '../../src/billing/paypal/paypal-webhook-route';
import type { PayPalVerifier } from '../../src/billing/paypal/verifier';
import { createTokenBucket } from '../../src/platform/http-client/token-bucket';
import { createErrorHandler } from '../../src/platform/http/errors';
import { createLogger } from '../../src/platform/logging/logger';
import { createMetricsRegistry } from '../../src/platform/metrics/metrics-registry';
import { parsePrometheus, sampleValue } from '../helpers/prometheus';
import { FAILURE, json, postbackFor, useFakePayPal, VERIFY_PATH } from './paypal-fake-api';
import { event, fixture, TEST_CERT_URL, TEST_LEAF_PEM, TEST_NOW, testVerifier, type Delivery } from './paypal-fixtures';

const ACTIVATED = event('BILLING.SUBSCRIPTION.ACTIVATED');
const CERT_HOST = 'messageverificationcerts.sandbox.paypal.com';
const TTL_MS = 60_000;
const REFUSED = 'chainscreen_paypal_deliveries_refused_total';

/** The delivery with another cert URL (and so unverifiable by anyone but its forger). */
const naming = (certUrl: string, delivery: Delivery = ACTIVATED): Delivery => ({
  rawBody: delivery.rawBody,
  headers: { ...delivery.headers, 'paypal-cert-url': certUrl },
});
const madeUp = (id: string) => `https://api.sandbox.paypal.com/v1/notifications/certs/CERT-${id}`;

async function settle(deliveries: Delivery[], verifier: PayPalVerifier) {
  return Promise.all(
    deliveries.map((d) =>
      verifier.verify(d).then(
        () => 'accepted',
        (err: unknown) => err,
      ),
    ),
  );
}

describe('forged PayPal deliveries', () => {
  const fake = useFakePayPal();
  const certRequests: string[] = [];
  let certHostDown = false;
  let certHost: Server;
  let agent: Agent;
  let port = 0;
  let clock = TEST_NOW.getTime();

  beforeAll(async () => {
    // PayPal's certificate host: the test leaf at the fixtures' cert URL, 404 for any other certificate id.
    certHost = createServer({ key: fixture('test-pki/leaf.key'), cert: fixture('test-pki/leaf.pem') }, (req, res) => {
      certRequests.push(req.url ?? '');
      if (certHostDown) res.writeHead(503).end('maintenance');
      else if (req.url === new URL(TEST_CERT_URL).pathname) res.writeHead(200).end(TEST_LEAF_PEM);
      else res.writeHead(404, { 'content-type': 'application/json' }).end('{"name":"RESOURCE_NOT_FOUND"}');
    });
    certHost.listen(0, '127.0.0.1');
    await once(certHost, 'listening');
    port = (certHost.address() as AddressInfo).port;
    agent = new Agent({
      ca: fixture('test-pki/ca.pem'),
      lookup: ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) =>
        options.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4)) as never,
    });
  });
  afterAll(async () => {
    agent.destroy();
    certHost.closeAllConnections();
    await new Promise((resolve) => certHost.close(resolve));
  });
  beforeEach(() => {
    certRequests.length = 0;
    certHostDown = false;
    clock = TEST_NOW.getTime();
  });

  /** The production fetcher, with the allowlisted PayPal URL's path sent to the local certificate host. */
  const fetchFromCertHost = (url: URL) =>
    fetchPayPalCertificate(new URL(url.pathname, `https://${CERT_HOST}:${port}`), { agent });

  const verifierWith = (postbacksAtOnce: number) =>
    testVerifier(
      {
        now: () => new Date(clock),
        postback: postbackFor(fake),
        // No refill within a test: the budget is exactly `postbacksAtOnce`.
        postbackBudget: createTokenBucket(1 / 3600, () => clock, postbacksAtOnce),
        certFailureTtlMs: TTL_MS,
      },
      fetchFromCertHost,
    ).verifier;

  test(
    'When forged deliveries name cert URLs PayPal has no certificate at, then every one is refused 401 ' +
      '(cert_not_found) without any call to PayPal’s API, and each URL is fetched once per TTL',
    async () => {
      // Arrange: 30 deliveries over 3 made-up URLs, half at once and half one after another
      const verifier = verifierWith(5);
      const urls = ['a1', 'b2', 'c3'].map(madeUp);
      const deliveries = Array.from({ length: 30 }, (_, i) => naming(urls[i % 3]!));

      // Act
      const atOnce = await settle(deliveries.slice(0, 15), verifier);
      const inTurn = [];
      for (const d of deliveries.slice(15)) inTurn.push(...(await settle([d], verifier)));
      const fetchedWithinTtl = certRequests.length;
      clock += TTL_MS;
      const afterTtl = await settle([naming(urls[0]!)], verifier);

      // Assert
      for (const outcome of [...atOnce, ...inTurn, ...afterTtl]) {
        expect(outcome).toBeInstanceOf(WebhookSignatureError);
        expect((outcome as WebhookSignatureError).refusal).toBe('cert_not_found');
      }
      expect(fetchedWithinTtl).toBe(3);
      expect(certRequests).toHaveLength(4);
      expect(fake.requests).toEqual([]);
    },
  );

  test(
    'When the certificate host is down, then forged deliveries reach the postback only within its budget: ' +
      'of 20, two are asked about (and refused on FAILURE), 18 get 503 without a call, and the URL is fetched once',
    async () => {
      // Arrange
      certHostDown = true;
      fake.verifyReplies = [json(200, FAILURE), json(200, FAILURE)];
      const verifier = verifierWith(2);
      const forged = Array.from({ length: 20 }, () => naming(TEST_CERT_URL));

      // Act
      const outcomes = [...(await settle(forged.slice(0, 10), verifier))];
      for (const d of forged.slice(10)) outcomes.push(...(await settle([d], verifier)));

      // Assert
      const refusals = outcomes.map((o) => (o as WebhookSignatureError | VerificationUnavailableError).refusal);
      expect(refusals.filter((r) => r === 'postback_failure')).toHaveLength(2);
      expect(refusals.filter((r) => r === 'postback_rate_limited')).toHaveLength(18);
      expect(
        outcomes.filter((o) => o instanceof VerificationUnavailableError && o.refusal === 'postback_rate_limited'),
      ).toHaveLength(18);
      expect(fake.paths().filter((p) => p === VERIFY_PATH)).toHaveLength(2);
      expect(certRequests).toHaveLength(1);
    },
  );

  test(
    'When the certificate host was down for a genuine delivery, then the postback confirms it within the budget, ' +
      'the next waits for the TTL (503, PayPal retries), and after the TTL it verifies offline again',
    async () => {
      // Arrange: the genuine cert URL fails (outage); the one postback of the budget answers SUCCESS
      certHostDown = true;
      const verifier = verifierWith(1);
      expect(await settle([ACTIVATED, ACTIVATED], verifier)).toEqual([
        'accepted',
        expect.any(VerificationUnavailableError),
      ]);

      // Act
      certHostDown = false;
      const withinTtl = await settle([ACTIVATED], verifier);
      clock += TTL_MS;
      const afterTtl = await settle([ACTIVATED], verifier);

      // Assert
      expect(withinTtl).toEqual([expect.any(VerificationUnavailableError)]);
      expect(afterTtl).toEqual(['accepted']);
      expect(certRequests).toHaveLength(2);
      expect(fake.paths().filter((p) => p === VERIFY_PATH)).toHaveLength(1);
    },
  );
});

describe('the PayPal webhook route counts refused deliveries by reason', () => {
  test(
    'When forged deliveries of every kind arrive, then each is answered 401 or 503 and counted once under its ' +
      'reason, and no workflow starts',
    async () => {
      // Arrange: the real route, verifier (test PKI) and api metrics; starting a workflow would fail the test
      const registry = createMetricsRegistry();
      const refused = paypalDeliveriesRefused.register(registry);
      const { verifier } = testVerifier({ postbackBudget: createTokenBucket(1 / 3600, Date.now, 1) }, async (url) => {
        if (url.href === TEST_CERT_URL) return TEST_LEAF_PEM;
        throw new Error('connect ETIMEDOUT');
      });
      const started: unknown[] = [];
      const log = createLogger('silent');
      const app = express();
      app.use(
        createPayPalWebhookRouter({
          paypalVerifier: verifier,
          startEventWorkflow: async (request) => {
            started.push(request);
            return 'accepted';
          },
          webhookEvents: {} as never,
          unknownSubscriptionRetryMs: 1000,
          log,
          metrics: { paypalDeliveryRefused: (reason) => refused.inc({ reason }) },
        }),
      );
      app.use(createErrorHandler(log));
      const server = createHttpServer(app).listen(0, '127.0.0.1');
      await once(server, 'listening');
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/billing/paypal/webhook`;
      const tampered = Buffer.from(ACTIVATED.rawBody.toString().replace('"9.99"', '"9.98"'));
      const { 'paypal-transmission-sig': _, ...unsigned } = ACTIVATED.headers;
      const deliveries: Delivery[] = [
        { headers: ACTIVATED.headers, rawBody: tampered },
        { headers: ACTIVATED.headers, rawBody: tampered },
        { headers: unsigned, rawBody: ACTIVATED.rawBody },
        naming('https://evil.example/v1/notifications/certs/CERT-1'),
        naming(madeUp('unreachable')), // no postback configured: 503
      ];

      // Act
      const statuses: number[] = [];
      try {
        for (const d of deliveries) {
          const res = await fetch(url, {
            method: 'POST',
            headers: { ...(d.headers as Record<string, string>), 'content-type': 'application/json' },
            body: new Uint8Array(d.rawBody),
          });
          statuses.push(res.status);
        }
      } finally {
        server.close();
      }
      const samples = parsePrometheus(await registry.metrics());

      // Assert
      expect(statuses).toEqual([401, 401, 401, 401, 503]);
      expect(started).toEqual([]);
      expect(sampleValue(samples, REFUSED, { reason: 'signature' })).toBe(2);
      expect(sampleValue(samples, REFUSED, { reason: 'headers' })).toBe(1);
      expect(sampleValue(samples, REFUSED, { reason: 'cert_url' })).toBe(1);
      expect(sampleValue(samples, REFUSED, { reason: 'unavailable' })).toBe(1);
    },
  );
});
