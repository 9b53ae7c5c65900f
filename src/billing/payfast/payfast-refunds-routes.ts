import { Router } from 'express';
import { z } from 'zod';
import { currentUser, requireAdmin, requireScope } from '../../identity';
import { toCents } from '../money';
import type { RecordPayFastRefund } from './record-payfast-refund';
import { sameRefund, type PayFastRefundRecordStore } from './payfast-refund-records-store';
import type { CreditedPaymentStore } from '../credited-payments-store';
import { errorFields, type Logger } from '../../platform/logging/logger';
import { flatError, invalidParameter, parseOrThrow } from '../../platform/http/errors';
import { httpRequestIdOf, requestLogOf } from '../../platform/http/request-id';
import { BILLING_ERRORS } from '../error-codes';
import { PLATFORM_ERRORS } from '../../platform/errors';

const REFERENCE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;
const reference = (what: string) =>
  z
    .string({ error: `${what}: 1 to 100 letters, digits, or _ . : -` })
    .trim()
    .regex(REFERENCE, `${what}: 1 to 100 letters, digits, or _ . : -`);

export const payfastRefundBody = z
  .object(
    {
      pfPaymentId: reference("PayFast's pf_payment_id of the refunded payment"),
      refundId: reference("PayFast's refund id (or your own unique reference for this refund)"),
      amount: z
        .string({ error: 'the refunded amount in ZAR, e.g. "99.00" (omit to refund everything not refunded yet)' })
        .trim()
        .optional(),
      reason: z
        .string({ error: 'a string of at most 500 characters' })
        .max(500, 'a string of at most 500 characters')
        .optional(),
    },
    { error: 'a JSON object' },
  )
  .strict();

export const payfastRefundResponse = z.object({
  success: z.literal(true),
  data: z.object({
    refundId: z.string(),
    pfPaymentId: z.string(),
    outcome: z.enum(['revoked', 'logged', 'rejected']),
    creditsRevoked: z.int().min(0),
    detail: z.string().nullable(),
    transactionId: z.uuid().nullable(),
    duplicate: z.boolean().meta({
      description:
        "true when this refundId had been submitted before: the first submission's outcome, nothing taken twice",
    }),
  }),
});

export const payfastRefundPendingResponse = z.object({
  success: z.literal(true),
  data: z.object({
    refundId: z.string(),
    pfPaymentId: z.string(),
    state: z.literal('pending').meta({
      description:
        'Recorded, not applied yet (the worker is busy or down): it will be applied once. Submit the same body ' +
        'again to read the outcome',
    }),
    duplicate: z.boolean(),
  }),
});

export interface PayFastRefundRouterDeps {
  creditedPayments: Pick<CreditedPaymentStore, 'find'>;
  payfastRefundRecords: Pick<PayFastRefundRecordStore, 'record'>;
  recordPayFastRefund: RecordPayFastRefund;
  log: Logger;
}

/**
 * Admin: records a refund made in PayFast's dashboard or refund API (PayFast sends no ITN for refunds),
 * which takes back the payment's credits in proportion to the money returned, once per refundId. A refundId
 * already recorded for another payment or amount is 409; a refund not applied within PAYFAST_REFUND_WAIT_MS
 * is 202 `pending` (it goes on; the same request again reads its outcome).
 */
export function createPayFastRefundsRouter(deps: PayFastRefundRouterDeps): Router {
  const router = Router();
  router.post('/billing/payfast/refunds', requireScope('billing'), requireAdmin, async (req, res) => {
    const body = parseOrThrow(payfastRefundBody, req.body);
    const amountCents = body.amount === undefined ? null : toCents(body.amount);
    if (amountCents === 0 || (body.amount !== undefined && amountCents === null)) {
      throw invalidParameter('amount', 'a positive amount in ZAR with at most two decimals, e.g. "99.00"');
    }
    if (!(await deps.creditedPayments.find('payfast', body.pfPaymentId))) {
      throw flatError(PLATFORM_ERRORS.NOT_FOUND, `No credited PayFast payment ${body.pfPaymentId}`);
    }
    // The record is what the refund's workflow applies (nothing without it), written before the workflow starts.
    const { record } = await deps.payfastRefundRecords.record({
      pfPaymentId: body.pfPaymentId,
      refundId: body.refundId,
      amountCents,
      reason: body.reason ?? null,
      recordedBy: currentUser(res).id,
    });
    if (!sameRefund(record, { pfPaymentId: body.pfPaymentId, amountCents })) {
      const amount = (cents: number | null) => (cents === null ? 'everything not refunded' : (cents / 100).toFixed(2));
      throw flatError(
        BILLING_ERRORS.REFUND_ID_CONFLICT,
        `refundId ${body.refundId} is already recorded for payment ${record.pfPaymentId} ` +
          `(${amount(record.amountCents)}); ` +
          'a refund id names one refund: use a new one for this refund',
      );
    }
    let recorded: Awaited<ReturnType<typeof deps.recordPayFastRefund>>;
    try {
      recorded = await deps.recordPayFastRefund(record, { httpRequestId: httpRequestIdOf(res) });
    } catch (err) {
      requestLogOf(res, deps.log).error('payfast refund workflow did not complete', {
        refundId: body.refundId,
        ...errorFields(err),
      });
      throw flatError(
        PLATFORM_ERRORS.SERVICE_UNAVAILABLE,
        'The refund could not be recorded right now; nothing was taken back, please retry with the same refundId',
      );
    }
    if (recorded.state === 'pending') {
      res.status(202).json({
        success: true,
        data: {
          refundId: body.refundId,
          pfPaymentId: body.pfPaymentId,
          state: 'pending',
          duplicate: recorded.duplicate,
        },
      });
      return;
    }
    const { result, duplicate } = recorded;
    res.json({
      success: true,
      data: {
        refundId: body.refundId,
        pfPaymentId: body.pfPaymentId,
        outcome: result.outcome,
        creditsRevoked: Math.max(0, -result.credits),
        detail: result.detail,
        transactionId: result.transactionId,
        duplicate,
      },
    });
  });
  return router;
}
