import { Router } from 'express';
import { z } from 'zod';
import { payfastEventId, payfastWorkflowId } from '../workflow-ids';
import { PAYFAST_WEBHOOK } from '../webhook-providers';
import { readPayFastPayment } from './itn-payment';
import type { WebhookEventStore } from '../../platform/webhooks/webhook-events-store';
import type { StartEventWorkflow } from '../../platform/webhooks/event-workflows';
import { noteWebhookOutcome } from '../../platform/metrics/webhook-delivery-edge';
import { ItnFormatError } from './errors';
import { itnParamStringForValidation, parseItn, verifyItnSignature } from './itn';
import { flatError } from '../../platform/http/errors';
import type { Logger } from '../../platform/logging/logger';
import { httpRequestIdOf, requestLogOf } from '../../platform/http/request-id';
import { bodyBytes, invalidSignature, notConfigured, rawBody } from '../../platform/http/raw-body';
import { BILLING_ERRORS } from '../error-codes';

export interface PayFastWebhookDeps {
  startEventWorkflow: StartEventWorkflow;
  webhookEvents: WebhookEventStore;
  /** Without a passphrase the MD5 is a checksum anyone can compute, so the route refuses to run. */
  passphrase?: string;
  merchantId?: string;
  /** Present when PAYFAST_VERIFY_SOURCE is on: is req.ip one of PayFast's senders? */
  isPayFastSource?: (ip: string | undefined) => Promise<boolean>;
  log: Logger;
}

const KNOWN_STATUSES = new Set(['COMPLETE', 'FAILED', 'CANCELLED']);

/** The ITN form (application/x-www-form-urlencoded) as PayFast posts it; every field is text, none may repeat. */
export const payfastItnBody = z.looseObject({
  m_payment_id: z.string().meta({ description: 'Our checkout id (POST /billing/payfast/checkout)' }),
  pf_payment_id: z.string().meta({ description: "PayFast's payment id" }),
  payment_status: z
    .string()
    .meta({ description: `${[...KNOWN_STATUSES].join(', ')}; others are recorded and acknowledged` }),
  amount_gross: z.string().optional(),
  merchant_id: z.string().optional(),
  custom_str1: z.string().optional().meta({ description: 'The user (Clerk id or UUID), from the checkout' }),
  signature: z
    .string()
    .meta({ description: 'MD5 of the other fields, URL-encoded in the order sent, with the passphrase' }),
});

/**
 * POST /api/v1/billing/payfast/webhook (ITN): signature over the received parameters with the
 * passphrase (401), sender address when enabled (403), merchant id (400), then one workflow per
 * payment. The acknowledgement PayFast waits for is a plain HTTP 200.
 */
export function createPayFastWebhookRouter(deps: PayFastWebhookDeps): Router {
  const router = Router();
  router.post(PAYFAST_WEBHOOK.path, rawBody('64kb'), async (req, res) => {
    if (!deps.passphrase) throw notConfigured('PayFast', 'PAYFAST_MERCHANT_PASSPHRASE');
    const raw = bodyBytes(req);
    let itn: ReturnType<typeof parseItn>;
    try {
      itn = parseItn(raw);
    } catch (err) {
      if (err instanceof ItnFormatError) throw flatError(BILLING_ERRORS.INVALID_ITN, `Malformed ITN: ${err.message}`);
      throw err;
    }
    if (!verifyItnSignature(raw, deps.passphrase)) {
      requestLogOf(res, deps.log).warn('payfast itn rejected', {
        reason: 'signature mismatch',
        pfPaymentId: itn.fields.pf_payment_id,
      });
      throw invalidSignature('the ITN signature does not match its parameters and the passphrase');
    }
    if (deps.isPayFastSource && !(await deps.isPayFastSource(req.ip))) {
      throw flatError(BILLING_ERRORS.FORBIDDEN_SOURCE, 'The ITN did not come from a PayFast address');
    }
    const f = itn.fields;
    if (deps.merchantId && f.merchant_id !== deps.merchantId)
      throw flatError(BILLING_ERRORS.MERCHANT_MISMATCH, 'merchant_id is not this merchant');
    const payment = readPayFastPayment(f);
    if ('missing' in payment) throw flatError(BILLING_ERRORS.INVALID_ITN, `${payment.missing} is required`);
    const status = payment.paymentStatus;
    if (!KNOWN_STATUSES.has(status)) {
      await deps.webhookEvents.recordOnce({
        provider: PAYFAST_WEBHOOK.provider,
        eventId: payfastEventId(payment.pfPaymentId, status),
        eventType: status,
        userId: null,
        outcome: 'ignored',
        detail: `payment_status ${status} is not handled`,
        credits: 0,
        transactionId: null,
        payload: payment.fields,
      });
      noteWebhookOutcome(res, 'ignored');
    } else {
      const accepted = await deps.startEventWorkflow({
        workflowType: 'payfastPaymentWorkflow',
        workflowId: payfastWorkflowId(payment.pfPaymentId, status),
        args: [
          // The worker re-verifies the ITN from these signed parameters and decides on server validation itself.
          { itn: payment, validationParamString: itnParamStringForValidation(raw) },
        ],
        provider: PAYFAST_WEBHOOK.provider,
        eventType: status,
        httpRequestId: httpRequestIdOf(res),
      });
      if (accepted === 'duplicate') noteWebhookOutcome(res, 'duplicate');
    }
    res.status(200).type('text/plain').send('OK');
  });
  return router;
}
