import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { decodePaymentRequiredHeader, decodePaymentSignatureHeader } from '@x402/core/http';
import {
  x402HTTPResourceServer,
  x402ResourceServer,
  type FacilitatorClient,
  type HTTPAdapter,
  type HTTPRequestContext,
  type HTTPResponseInstructions,
  type RoutesConfig,
} from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import type { X402PaymentStore } from './x402-payments-store';
import { paymentIdentity, type PaymentIdentity } from './payment-identity';
import type { X402RateLimits } from './x402-rate-limits';
import type { Logger } from '../platform/logging/logger';
import { errorFields } from '../platform/logging/logger';
import { requestLogOf } from '../platform/http/request-id';
import { BASE_USDC, REPORT_PRICE, REPORT_PRICE_UNITS, REPORT_ROUTES, X402_NETWORK, type ReportKind } from './constants';
import { X402_ERRORS } from './error-codes';
import { PLATFORM_ERRORS } from '../platform/errors';

/** What a paid report produced: 200 data is settled and served; anything else is served unsettled (not charged). */
export type ReportOutcome = { status: 200; data: unknown } | { status: number; body: Record<string, unknown> };

export interface PaidReport {
  kind: ReportKind;
  /** The report's request id, named by its payment's claim (the worker runs x402:<kind>:<request id> only then). */
  requestId: string;
  payer: string;
  amount: string;
  asset: string;
  network: string;
}

/** `hidePayment`: the request as if it carried no payment (to build the challenge for an unreadable one). */
function adapterFor(req: Request, hidePayment = false): HTTPAdapter {
  return {
    getHeader: (name) => (hidePayment && /^(payment-signature|x-payment)$/i.test(name) ? undefined : req.get(name)),
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
  code: z.literal(X402_ERRORS.PAYMENT_REQUIRED.code),
  payTo: z.string().meta({ description: 'The address the USDC goes to' }),
  amount: z
    .literal(REPORT_PRICE_UNITS)
    .meta({ description: `USDC base units (6 decimals): ${REPORT_PRICE_UNITS} = ${REPORT_PRICE}` }),
  price: z.literal(REPORT_PRICE),
  asset: z.literal(BASE_USDC),
  network: z.literal(X402_NETWORK),
  resource: z.url(),
});

function routesFor(payTo: string): RoutesConfig {
  const accepts = {
    scheme: 'exact',
    network: X402_NETWORK,
    payTo,
    price: REPORT_PRICE,
    maxTimeoutSeconds: 120,
  } as const;
  return Object.fromEntries(
    (Object.entries(REPORT_ROUTES) as [ReportKind, string][]).map(([kind, route]) => [
      route,
      {
        accepts,
        description: `${kind.toUpperCase()} compliance report`,
        mimeType: 'application/json',
        // The challenge also goes in the body, for clients that read bodies rather than the PAYMENT-REQUIRED header.
        unpaidResponseBody: async (ctx: HTTPRequestContext) => ({
          contentType: 'application/json',
          body: {
            success: false,
            error: 'Payment required',
            code: X402_ERRORS.PAYMENT_REQUIRED.code,
            payTo,
            amount: REPORT_PRICE_UNITS,
            price: REPORT_PRICE,
            asset: BASE_USDC,
            network: X402_NETWORK,
            resource: ctx.adapter.getUrl(),
          },
        }),
      },
    ]),
  ) as RoutesConfig;
}

/** The library's PAYMENT-REQUIRED header (it names headers in its own case). */
const paymentRequiredOf = (headers: Record<string, string>): string | undefined =>
  Object.entries(headers).find(([name]) => name.toLowerCase() === 'payment-required')?.[1];

/** Why the x402 library refused a payment: the `error` of its PAYMENT-REQUIRED header, when it gave one. */
function refusalReason(headers: Record<string, string>): string | undefined {
  const header = paymentRequiredOf(headers);
  if (!header) return undefined;
  try {
    return decodePaymentRequiredHeader(header).error || undefined;
  } catch {
    return undefined;
  }
}

/** What every report's payment is checked against: the one `accepts` entry of routesFor. */
const REPORT_REQUIREMENTS = { scheme: 'exact', network: X402_NETWORK, asset: BASE_USDC } as const;

/**
 * The identity the payment in a PAYMENT-SIGNATURE header will have once verified against the report's requirements,
 * read from the header before verification (to claim it first); null for a payload this service cannot key, which
 * is verified unclaimed and then refused.
 */
function claimKeyOf(header: string): PaymentIdentity | null {
  try {
    return paymentIdentity(decodePaymentSignatureHeader(header), REPORT_REQUIREMENTS);
  } catch {
    return null;
  }
}

const sameIdentity = (a: PaymentIdentity, b: PaymentIdentity) =>
  a.method === b.method &&
  a.network === b.network &&
  a.contract === b.contract &&
  a.payer.toLowerCase() === b.payer.toLowerCase() &&
  a.nonce === b.nonce;

/** A payer with an unsettled report is asked to come back after about as long as a report takes. */
const PAYER_BUSY_RETRY_AFTER_SECONDS = 5;

function isReadablePayment(header: string): boolean {
  try {
    decodePaymentSignatureHeader(header);
    return true;
  } catch {
    return false;
  }
}

const isEmptyBody = (body: unknown) =>
  body === undefined || body === null || (typeof body === 'object' && Object.keys(body).length === 0);

/**
 * Serves the library's refusal as it is (challenge, HTML paywall) unless its body is empty, as it is for
 * a payment that did not verify or settle: then the flat error shape, with the library's reason in words.
 */
function sendRefusal(
  res: Response,
  response: HTTPResponseInstructions,
  code: 'PAYMENT_REJECTED' | 'SETTLEMENT_FAILED',
  fallbackReason?: string,
): void {
  res.status(response.status).set(response.headers);
  if (response.isHtml) {
    res.type('html').send(response.body);
    return;
  }
  if (!isEmptyBody(response.body)) {
    res.json(response.body);
    return;
  }
  const reason = refusalReason(response.headers) ?? fallbackReason ?? 'unspecified';
  const error =
    code === X402_ERRORS.PAYMENT_REJECTED.code
      ? `The payment was not accepted (${reason}); nothing was charged`
      : `The payment could not be settled (${reason}); nothing was charged`;
  res.json({ success: false, error, code, reason });
}

/**
 * x402 around a report: claim the payment in Postgres under its identity on chain (payment-identity.ts: network,
 * nonce contract, signer, nonce) and the report's request id, verify it, produce the report, and settle only when it
 * succeeded; a failed or refused report is not charged and its claim is given back. Settling after the handler means
 * a handler error costs nothing; the claim means a replayed or concurrently duplicated payment never yields a second
 * report, and (one 'processing' claim per payer) a payer never has more than one unsettled report: the facilitator's
 * verify only simulates the transfer, so N authorizations against a balance that covers one would otherwise run N.
 * Paid attempts are rate-limited per client address before anything else and per payer once the header is decoded.
 */
export function createPaymentGate(deps: {
  facilitator: FacilitatorClient;
  payTo: string;
  payments: X402PaymentStore;
  /** Budgets of paid attempts per client address and per payer (X402_RATE_LIMIT_*); none: unlimited. */
  limits?: X402RateLimits;
  /**
   * After how long a claim left 'processing' no longer blocks its payer (its api stopped mid-report): longer than
   * any report (X402_REPORT_TIMEOUT_MS) and its settlement can take.
   */
  claimStaleAfterMs: number;
  log: Logger;
}) {
  const resourceServer = new x402ResourceServer(deps.facilitator).register(X402_NETWORK, new ExactEvmScheme());
  const httpServer = new x402HTTPResourceServer(resourceServer, routesFor(deps.payTo));
  let ready: Promise<void> | null = null;
  const initialize = () =>
    (ready ??= httpServer.initialize().catch((err: unknown) => {
      ready = null;
      throw err;
    }));

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
      res.status(503).json({
        success: false,
        error: 'Payments cannot be processed right now; nothing was charged',
        code: X402_ERRORS.PAYMENT_UNAVAILABLE.code,
      });
      return;
    }
    const paymentHeader = req.get('payment-signature');
    // Before anything about the payment is checked: a client address's budget of paid attempts (cheap).
    if (paymentHeader !== undefined) await deps.limits?.byAddress(req, res);
    if (paymentHeader !== undefined && !isReadablePayment(paymentHeader)) {
      // The library would log a stack trace and answer the bare challenge; the client is told what was wrong instead.
      const challenge = await httpServer
        .processHTTPRequest({ adapter: adapterFor(req, true), path: req.path, method: req.method })
        .catch(() => null);
      const required = challenge?.type === 'payment-error' ? paymentRequiredOf(challenge.response.headers) : undefined;
      if (required) res.set('PAYMENT-REQUIRED', required);
      res.status(402).json({
        success: false,
        error: 'PAYMENT-SIGNATURE is not a base64-encoded x402 payment payload; nothing was charged',
        code: X402_ERRORS.PAYMENT_REJECTED.code,
        reason: 'unreadable_payment_header',
      });
      return;
    }
    // The report's request id, drawn before the claim: the claim names it, and the worker runs only that report.
    const requestId = randomUUID();
    // The payment is claimed BEFORE it is verified, so the verification runs while the claim holds its payer's one
    // slot for an unsettled report: every earlier report of this payer has settled (or given its claim back) by
    // then, and the facilitator's simulation sees the balance they left. Verified after an earlier report settled,
    // but claimed later, a payment could otherwise buy a report its payer can no longer pay for. A payer already
    // holding a claim is answered 429 at once; a payment claimed before is still verified, so the refusal says why
    // (a tampered copy does not verify: PAYMENT_REJECTED; the same valid payment again: DUPLICATE_PAYMENT).
    const payment = paymentHeader === undefined ? null : claimKeyOf(paymentHeader);
    let claimed: PaymentIdentity | null = null;
    /** Claimed before (a replay, or the same payment twice at once): verified all the same, for the refusal's why. */
    let duplicate = false;
    if (payment) {
      await deps.limits?.byPayer(res, payment);
      const outcome = await deps.payments.claim(payment, {
        report: kind,
        amount: REPORT_PRICE_UNITS,
        asset: BASE_USDC,
        requestId,
        staleAfterMs: deps.claimStaleAfterMs,
      });
      if (outcome === 'claimed') claimed = payment;
      duplicate = outcome === 'duplicate';
      if (outcome === 'payer_busy') {
        res
          .status(429)
          .set('Retry-After', String(PAYER_BUSY_RETRY_AFTER_SECONDS))
          .json({
            success: false,
            error:
              'This payer already has a report in progress (one unsettled report per payer at a time); nothing was ' +
              `charged, retry in ${PAYER_BUSY_RETRY_AFTER_SECONDS} s`,
            code: X402_ERRORS.PAYER_BUSY.code,
          });
        return;
      }
    }
    /** Gives the claim back on every path that does not produce a report: nothing was charged. */
    const giveBack = async () => {
      if (claimed) await deps.payments.release(claimed);
    };
    const context: HTTPRequestContext = {
      adapter: adapterFor(req),
      path: req.path,
      method: req.method,
      paymentHeader: paymentHeader ?? req.get('x-payment'),
    };
    let result: Awaited<ReturnType<typeof httpServer.processHTTPRequest>>;
    try {
      result = await httpServer.processHTTPRequest(context);
    } catch (err) {
      // The facilitator did not answer the verification: the claim is given back, nothing was charged.
      await giveBack();
      requestLogOf(res, deps.log).error('x402 verification unavailable', errorFields(err));
      res.status(503).json({
        success: false,
        error: 'Payments cannot be processed right now; nothing was charged',
        code: X402_ERRORS.PAYMENT_UNAVAILABLE.code,
      });
      return;
    }
    if (result.type === 'payment-error') {
      await giveBack();
      sendRefusal(res, result.response, X402_ERRORS.PAYMENT_REJECTED.code);
      return;
    }
    if (result.type !== 'payment-verified') {
      await giveBack();
      res.status(500).json({ success: false, error: 'Internal error', code: PLATFORM_ERRORS.INTERNAL.code });
      return;
    }
    const { paymentPayload, paymentRequirements } = result;
    if (duplicate) {
      // A valid payment, but another request holds (or held) its claim: this one never yields a second report.
      await result.cancellationDispatcher
        .cancel({ reason: 'handler_failed', responseStatus: 402 })
        .catch(() => undefined);
      res.status(402).json({
        success: false,
        error: 'This payment authorization was already used',
        code: X402_ERRORS.DUPLICATE_PAYMENT.code,
      });
      return;
    }
    const key = paymentIdentity(paymentPayload, paymentRequirements);
    if (!key || !claimed || !sameIdentity(key, claimed)) {
      // Verified by the facilitator, but of a shape this service cannot tell apart from other payments (or not the
      // payment that was claimed): refused, its claim given back.
      await giveBack();
      await result.cancellationDispatcher
        .cancel({ reason: 'handler_failed', responseStatus: 402 })
        .catch(() => undefined);
      res.status(402).json({
        success: false,
        error:
          'The payment was not accepted (unsupported_payment_method: not one EIP-3009 or Permit2 authorization); ' +
          'nothing was charged',
        code: X402_ERRORS.PAYMENT_REJECTED.code,
        reason: 'unsupported_payment_method',
      });
      return;
    }
    let outcome: ReportOutcome;
    try {
      outcome = await produce({
        kind,
        requestId,
        payer: key.payer,
        amount: paymentRequirements.amount,
        asset: paymentRequirements.asset,
        network: paymentRequirements.network,
      });
    } catch (err) {
      requestLogOf(res, deps.log).error('paid report failed; not charged', { kind, ...errorFields(err) });
      outcome = {
        status: 503,
        body: {
          success: false,
          error: 'The report could not be produced; nothing was charged',
          code: X402_ERRORS.REPORT_FAILED.code,
        },
      };
    }
    if (outcome.status !== 200 || !('data' in outcome)) {
      await deps.payments.release(key);
      await result.cancellationDispatcher
        .cancel({ reason: 'handler_failed', responseStatus: outcome.status })
        .catch(() => undefined);
      res.status(outcome.status).json((outcome as { body: Record<string, unknown> }).body);
      return;
    }
    let settlement: Awaited<ReturnType<typeof httpServer.processSettlement>>;
    try {
      settlement = await httpServer.processSettlement(paymentPayload, paymentRequirements, result.declaredExtensions, {
        request: context,
      });
    } catch (err) {
      // The claim is given back: if the transfer did land, its nonce is spent on chain and a retry cannot settle twice.
      await deps.payments.release(key);
      requestLogOf(res, deps.log).error('x402 settlement unavailable; report withheld', { kind, ...errorFields(err) });
      res.status(503).json({
        success: false,
        error: 'The payment could not be settled right now; the report was withheld',
        code: X402_ERRORS.PAYMENT_UNAVAILABLE.code,
      });
      return;
    }
    if (!settlement.success) {
      await deps.payments.release(key);
      sendRefusal(
        res,
        { ...settlement.response, headers: { ...settlement.response.headers, ...settlement.headers } },
        X402_ERRORS.SETTLEMENT_FAILED.code,
        settlement.errorReason,
      );
      return;
    }
    await deps.payments.settled(key, settlement.transaction ?? null);
    const paid = {
      kind,
      requestId,
      payer: key.payer,
      amount: paymentRequirements.amount,
      asset: paymentRequirements.asset,
      network: paymentRequirements.network,
    };
    await record(paid, outcome.data, settlement.transaction ?? null).catch((err: unknown) =>
      requestLogOf(res, deps.log).error('paid report not recorded in the activity history', {
        kind,
        ...errorFields(err),
      }),
    );
    res
      .status(200)
      .set(settlement.headers)
      .json({
        success: true,
        x402: {
          payer: key.payer,
          amount: paymentRequirements.amount,
          asset: paymentRequirements.asset,
          network: paymentRequirements.network,
          transaction: settlement.transaction ?? null,
        },
        data: outcome.data,
      });
  };
}

export type ServePaid = ReturnType<typeof createPaymentGate>;
