import type { Request, Response } from 'express';
import { z } from 'zod';
import { x402HTTPResourceServer, x402ResourceServer, type FacilitatorClient, type HTTPAdapter, type HTTPRequestContext, type RoutesConfig } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import type { X402PaymentStore } from '../db/x402-payments';
import type { Logger } from '../logger';
import { errorFields } from '../logger';
import { requestLogOf } from '../api/request-id';
import { BASE_USDC, REPORT_PRICE, REPORT_PRICE_UNITS, REPORT_ROUTES, X402_NETWORK, type ReportKind } from './constants';

/** What a paid report produced: 200 data is settled and served; anything else is served unsettled (not charged). */
export type ReportOutcome = { status: 200; data: unknown } | { status: number; body: Record<string, unknown> };

export interface PaidReport {
  kind: ReportKind;
  payer: string;
  amount: string;
  asset: string;
  network: string;
}

function adapterFor(req: Request): HTTPAdapter {
  return {
    getHeader: (name) => req.get(name),
    getMethod: () => req.method,
    getPath: () => req.path,
    getUrl: () => `${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`,
    getAcceptHeader: () => req.get('accept') ?? '',
    getUserAgent: () => req.get('user-agent') ?? '',
    getBody: () => req.body,
  };
}

/** The 402 body: the challenge of the PAYMENT-REQUIRED header, for clients that read bodies. */
export const paymentRequiredBodySchema = z.object({
  success: z.literal(false),
  error: z.literal('Payment required'),
  code: z.literal('PAYMENT_REQUIRED'),
  payTo: z.string().meta({ description: 'The address the USDC goes to' }),
  amount: z.literal(REPORT_PRICE_UNITS).meta({ description: 'USDC base units (6 decimals): 1000000 = $1.00' }),
  price: z.literal(REPORT_PRICE),
  asset: z.literal(BASE_USDC),
  network: z.literal(X402_NETWORK),
  resource: z.url(),
});

function routesFor(payTo: string): RoutesConfig {
  const accepts = { scheme: 'exact', network: X402_NETWORK, payTo, price: REPORT_PRICE, maxTimeoutSeconds: 120 } as const;
  return Object.fromEntries(
    (Object.entries(REPORT_ROUTES) as [ReportKind, string][]).map(([kind, route]) => [route, {
      accepts,
      description: `${kind.toUpperCase()} compliance report`,
      mimeType: 'application/json',
      // The challenge also goes in the body, for clients that read bodies rather than the PAYMENT-REQUIRED header.
      unpaidResponseBody: async (ctx: HTTPRequestContext) => ({
        contentType: 'application/json',
        body: { success: false, error: 'Payment required', code: 'PAYMENT_REQUIRED', payTo, amount: REPORT_PRICE_UNITS, price: REPORT_PRICE, asset: BASE_USDC, network: X402_NETWORK, resource: ctx.adapter.getUrl() },
      }),
    }]),
  ) as RoutesConfig;
}

/**
 * x402 around a report: verify the payment, claim its authorization (network, payer, nonce) in
 * Postgres, produce the report, and settle only when it succeeded; a failed or refused report is
 * not charged and its claim is given back. Settling after the handler means a handler error costs
 * nothing; the claim means a replayed or concurrently duplicated payment never yields a second report.
 */
export function createPaymentGate(deps: { facilitator: FacilitatorClient; payTo: string; payments: X402PaymentStore; log: Logger }) {
  const resourceServer = new x402ResourceServer(deps.facilitator).register(X402_NETWORK, new ExactEvmScheme());
  const httpServer = new x402HTTPResourceServer(resourceServer, routesFor(deps.payTo));
  let ready: Promise<void> | null = null;
  const initialize = () => (ready ??= httpServer.initialize().catch((err: unknown) => { ready = null; throw err; }));

  return async function servePaid(
    req: Request,
    res: Response,
    kind: ReportKind,
    produce: (paid: PaidReport) => Promise<ReportOutcome>,
    record: (paid: PaidReport, data: unknown, transaction: string | null) => Promise<void>,
  ): Promise<void> {
    try {
      await initialize();
    } catch (err) {
      requestLogOf(res, deps.log).error('x402 facilitator unavailable', errorFields(err));
      res.status(503).json({ success: false, error: 'Payments cannot be processed right now; nothing was charged', code: 'PAYMENT_UNAVAILABLE' });
      return;
    }
    const context: HTTPRequestContext = { adapter: adapterFor(req), path: req.path, method: req.method, paymentHeader: req.get('payment-signature') ?? req.get('x-payment') };
    const result = await httpServer.processHTTPRequest(context);
    if (result.type === 'payment-error') {
      res.status(result.response.status).set(result.response.headers).json(result.response.body ?? { success: false, error: 'Payment required' });
      return;
    }
    if (result.type !== 'payment-verified') {
      res.status(500).json({ success: false, error: 'Internal error', code: 'INTERNAL' });
      return;
    }
    const { paymentPayload, paymentRequirements } = result;
    const authorization = (paymentPayload.payload as { authorization?: { from?: string; nonce?: string } }).authorization ?? {};
    const key = { network: paymentRequirements.network, payer: String(authorization.from ?? ''), nonce: String(authorization.nonce ?? '') };
    if (!(await deps.payments.claim(key, kind, paymentRequirements.amount, paymentRequirements.asset))) {
      await result.cancellationDispatcher.cancel({ reason: 'handler_failed', responseStatus: 402 }).catch(() => undefined);
      res.status(402).json({ success: false, error: 'This payment authorization was already used', code: 'DUPLICATE_PAYMENT' });
      return;
    }
    let outcome: ReportOutcome;
    try {
      outcome = await produce({ kind, payer: key.payer, amount: paymentRequirements.amount, asset: paymentRequirements.asset, network: paymentRequirements.network });
    } catch (err) {
      requestLogOf(res, deps.log).error('paid report failed; not charged', { kind, ...errorFields(err) });
      outcome = { status: 503, body: { success: false, error: 'The report could not be produced; nothing was charged', code: 'REPORT_FAILED' } };
    }
    if (outcome.status !== 200 || !('data' in outcome)) {
      await deps.payments.release(key);
      await result.cancellationDispatcher.cancel({ reason: 'handler_failed', responseStatus: outcome.status }).catch(() => undefined);
      res.status(outcome.status).json((outcome as { body: Record<string, unknown> }).body);
      return;
    }
    const settlement = await httpServer.processSettlement(paymentPayload, paymentRequirements, result.declaredExtensions, { request: context });
    if (!settlement.success) {
      await deps.payments.release(key);
      res.status(settlement.response.status).set(settlement.headers).json(settlement.response.body ?? { success: false, error: 'Payment settlement failed', code: 'SETTLEMENT_FAILED', reason: settlement.errorReason });
      return;
    }
    await deps.payments.settled(key, settlement.transaction ?? null);
    const paid = { kind, payer: key.payer, amount: paymentRequirements.amount, asset: paymentRequirements.asset, network: paymentRequirements.network };
    await record(paid, outcome.data, settlement.transaction ?? null).catch((err: unknown) => requestLogOf(res, deps.log).error('paid report not recorded in the activity history', { kind, ...errorFields(err) }));
    res.status(200).set(settlement.headers).json({
      success: true,
      x402: { payer: key.payer, amount: paymentRequirements.amount, asset: paymentRequirements.asset, network: paymentRequirements.network, transaction: settlement.transaction ?? null },
      data: outcome.data,
    });
  };
}

export type ServePaid = ReturnType<typeof createPaymentGate>;
