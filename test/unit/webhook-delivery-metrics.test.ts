import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { FEATURES } from '../../src/app/features';
import { createApiMetrics } from '../../src/app/metrics/api-metrics';
import { featureWebhookProviders } from '../../src/app/webhook-providers';
import { createMetricsRegistry } from '../../src/platform/metrics/metrics-registry';
import { noteWebhookOutcome, webhookDeliveryMetrics } from '../../src/platform/metrics/webhook-delivery-edge';
import { webhookProvidersByPath } from '../../src/platform/webhooks/webhook-routes';
import { parsePrometheus } from '../helpers/prometheus';

const DELIVERIES = 'chainscreen_webhook_deliveries_total';

describe('webhook providers are what the features declare', () => {
  test('the features declare exactly the webhook endpoints the api serves, each under its provider', () => {
    expect(Object.fromEntries(featureWebhookProviders())).toEqual({
      '/api/v1/billing/paypal/webhook': 'paypal',
      '/api/v1/billing/payfast/webhook': 'payfast',
      '/api/webhook/clerk': 'clerk',
      '/api/webhook/activity': 'activity',
    });
  });

  test('a path or a provider declared twice stops the wiring', () => {
    expect(() =>
      webhookProvidersByPath([
        { provider: 'acmepay', path: '/api/webhook/acmepay' },
        { provider: 'otherpay', path: '/api/webhook/acmepay' },
      ]),
    ).toThrow('webhook path /api/webhook/acmepay is declared twice');
    expect(() =>
      webhookProvidersByPath([
        { provider: 'acmepay', path: '/api/webhook/acmepay' },
        { provider: 'acmepay', path: '/api/webhook/acmepay-v2' },
      ]),
    ).toThrow('webhook provider acmepay is declared twice');
  });
});

describe('webhook deliveries are counted under the provider their path declares', () => {
  test(
    'When POSTs reach declared and undeclared paths, then each POST to a declared path is counted once under its ' +
      'provider and edge outcome, and nothing else is counted',
    async () => {
      // Arrange: a made-up provider next to the features' own, and routes that answer as real ones would
      const metrics = createApiMetrics(createMetricsRegistry());
      const providers = webhookProvidersByPath([
        ...FEATURES.flatMap((feature) => feature.webhookProviders ?? []),
        { provider: 'acmepay', path: '/api/webhook/acmepay' },
      ]);
      const app = express();
      app.use(webhookDeliveryMetrics(providers, metrics));
      app.post('/api/webhook/acmepay', (_req, res) => void res.json({ ok: true }));
      app.post('/api/webhook/activity', (_req, res) => {
        noteWebhookOutcome(res, 'duplicate');
        res.status(201).json({ ok: true });
      });
      app.post('/api/webhook/clerk', (_req, res) => void res.status(401).json({ error: 'forged' }));
      app.post('/api/v1/billing/payfast/webhook', (_req, res) => {
        noteWebhookOutcome(res, 'ignored');
        res.send('OK');
      });
      app.post('/api/v1/billing/paypal/webhook', (_req, res) => void res.status(503).json({ error: 'later' }));
      app.all('/{*rest}', (_req, res) => void res.status(404).end());
      const server = createServer(app).listen(0, '127.0.0.1');
      await once(server, 'listening');
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

      // Act
      try {
        for (const path of [
          '/api/webhook/acmepay',
          '/api/webhook/activity',
          '/api/webhook/clerk',
          '/api/v1/billing/payfast/webhook',
          '/api/v1/billing/paypal/webhook',
          '/api/webhook/unknown',
        ])
          await (await fetch(`${base}${path}`, { method: 'POST' })).arrayBuffer();
        await (await fetch(`${base}/api/webhook/acmepay`)).arrayBuffer();
      } finally {
        server.close();
      }
      const samples = parsePrometheus(await metrics.registry.metrics());

      // Assert
      const counted = Object.fromEntries([...samples].filter(([key]) => key.startsWith(`${DELIVERIES}{`)));
      expect(counted).toEqual({
        [`${DELIVERIES}{outcome="accepted",provider="acmepay"}`]: 1,
        [`${DELIVERIES}{outcome="duplicate",provider="activity"}`]: 1,
        [`${DELIVERIES}{outcome="forged",provider="clerk"}`]: 1,
        [`${DELIVERIES}{outcome="ignored",provider="payfast"}`]: 1,
        [`${DELIVERIES}{outcome="unavailable",provider="paypal"}`]: 1,
      });
    },
  );
});
