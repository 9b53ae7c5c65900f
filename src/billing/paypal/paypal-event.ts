import { parseInstant } from '../../platform/http/date-params';
import { z } from 'zod';
import { toCents } from '../money';
import { PLATFORM_ERRORS, type ErrorCodeEntry } from '../../platform/errors';
import { BILLING_ERRORS } from '../error-codes';

/**
 * Subscription events this service acts on (spec 3.2, plus SUSPENDED and EXPIRED so a lapsed plan never looks active).
 */
export const PAYPAL_SUBSCRIPTION_EVENTS = [
  'BILLING.SUBSCRIPTION.ACTIVATED',
  'BILLING.SUBSCRIPTION.UPDATED',
  'BILLING.SUBSCRIPTION.CANCELLED',
  'BILLING.SUBSCRIPTION.PAYMENT.FAILED',
  'BILLING.SUBSCRIPTION.SUSPENDED',
  'BILLING.SUBSCRIPTION.EXPIRED',
] as const;
export const PAYPAL_SALE_COMPLETED = 'PAYMENT.SALE.COMPLETED';
/** Money that goes back: a refund (resource = the refund, naming its sale) or a reversal (resource = the sale). */
export const PAYPAL_SALE_REFUNDED = 'PAYMENT.SALE.REFUNDED';
export const PAYPAL_SALE_REVERSED = 'PAYMENT.SALE.REVERSED';
/** A buyer's claim or chargeback against a sale: taken back while open, reinstated if the merchant wins it. */
export const PAYPAL_DISPUTE_CREATED = 'CUSTOMER.DISPUTE.CREATED';
export const PAYPAL_DISPUTE_RESOLVED = 'CUSTOMER.DISPUTE.RESOLVED';
/** Every event type this service acts on; others are recorded and acknowledged. */
export const PAYPAL_ACTED_ON = [
  ...PAYPAL_SUBSCRIPTION_EVENTS,
  PAYPAL_SALE_COMPLETED,
  PAYPAL_SALE_REFUNDED,
  PAYPAL_SALE_REVERSED,
  PAYPAL_DISPUTE_CREATED,
  PAYPAL_DISPUTE_RESOLVED,
] as const;

export type PayPalSubscriptionEventType = (typeof PAYPAL_SUBSCRIPTION_EVENTS)[number];

/** A malformed time (PayPal's simulator sends "2018-19-12…") is dropped, not fatal: times only order events. */
/** A time PayPal sent that Postgres can store (years 0001-9999); anything else is dropped, not a retried failure. */
const isoTime = z.string().transform((s) => (parseInstant(s) ? s : undefined));
const money = z.object({ value: z.string(), currency_code: z.string() }).partial();

const envelope = z.object({
  id: z.string().min(1).max(200),
  event_type: z.string().min(1).max(200),
  create_time: isoTime.optional(),
});

const subscriptionResource = z.object({
  id: z.string().min(1).max(200),
  status: z.string().min(1).max(40),
  plan_id: z.string().max(200).optional(),
  custom_id: z.string().max(127).optional(),
  update_time: isoTime.optional(),
  status_update_time: isoTime.optional(),
  billing_info: z
    .object({
      next_billing_time: isoTime.optional(),
      last_payment: z.object({ time: isoTime.optional(), amount: money.optional() }).optional(),
      last_failed_payment: z.object({ time: isoTime.optional(), reason_code: z.string().optional() }).optional(),
      failed_payments_count: z.number().int().optional(),
    })
    .optional(),
});

const saleResource = z.object({
  id: z.string().min(1).max(200),
  state: z.string().optional(),
  billing_agreement_id: z.string().max(200).optional(),
  custom: z.string().max(127).optional(),
  create_time: isoTime.optional(),
  amount: z.object({ total: z.string(), currency: z.string() }),
});

const refundResource = z.object({
  id: z.string().min(1).max(200),
  sale_id: z.string().min(1).max(200),
  state: z.string().optional(),
  amount: z.object({ total: z.string(), currency: z.string() }),
});

/** The disputes API resource (v1/customer/disputes): the sale is the merchant's side of the disputed transaction. */
const disputeResource = z.object({
  dispute_id: z.string().min(1).max(200),
  update_time: isoTime.optional(),
  disputed_transactions: z
    .array(z.looseObject({ seller_transaction_id: z.string().max(200).optional() }))
    .max(100)
    .optional(),
  dispute_amount: money.optional(),
  dispute_outcome: z.looseObject({ outcome_code: z.string().max(100).optional() }).optional(),
});

export interface PayPalSubscriptionChange {
  subscriptionId: string;
  status: string;
  planId: string | null;
  customId: string;
  /** The resource version: the newest one wins, whatever the delivery order. */
  updatedAt: string | null;
  statusUpdatedAt: string | null;
  nextBillingTime: string | null;
  lastPaymentAt: string | null;
  /** What that last payment was (a trial's or setup fee's price at activation); null when PayPal reports none. */
  lastPaymentAmount: { cents: number; currency: string } | null;
  lastFailedPaymentAt: string | null;
  lastFailureReason: string | null;
}

export interface PayPalSale {
  saleId: string;
  state: string | null;
  subscriptionId: string | null;
  custom: string | null;
  createdAt: string | null;
  total: string;
  currency: string;
}

/** A refund or reversal of a sale. */
export interface PayPalRefund {
  refundId: string;
  saleId: string;
  kind: 'refund' | 'reversal';
  state: string | null;
  /** Money returned (PayPal writes refund totals with or without a minus sign); null for a reversal: the whole sale. */
  amountCents: number | null;
  currency: string;
}

/** A dispute as one of its events describes it. */
export interface PayPalDispute {
  disputeId: string;
  /** The disputed sale (the first disputed transaction's seller_transaction_id); null when it names none. */
  saleId: string | null;
  /** The disputed money; null = the whole sale. */
  amountCents: number | null;
  currency: string | null;
  /** RESOLVED carries the outcome; CREATED is open. */
  resolved: boolean;
  outcomeCode: string | null;
  /** The resource version (update_time): the newer of two resolutions stands. */
  updatedAt: string | null;
}

export type PayPalEvent =
  | {
      kind: 'subscription';
      eventId: string;
      eventType: PayPalSubscriptionEventType;
      createTime: string | null;
      change: PayPalSubscriptionChange;
    }
  | {
      kind: 'sale';
      eventId: string;
      eventType: typeof PAYPAL_SALE_COMPLETED;
      createTime: string | null;
      sale: PayPalSale;
    }
  | {
      kind: 'refund';
      eventId: string;
      eventType: typeof PAYPAL_SALE_REFUNDED | typeof PAYPAL_SALE_REVERSED;
      createTime: string | null;
      refund: PayPalRefund;
    }
  | {
      kind: 'dispute';
      eventId: string;
      eventType: typeof PAYPAL_DISPUTE_CREATED | typeof PAYPAL_DISPUTE_RESOLVED;
      createTime: string | null;
      dispute: PayPalDispute;
    }
  | { kind: 'unhandled'; eventId: string; eventType: string };

/** A verified body that still cannot be acted on: the route answers its code (400) with this message. */
export class PayPalEventError extends Error {
  readonly code: string;

  constructor(
    readonly entry: ErrorCodeEntry,
    message: string,
  ) {
    super(message);
    this.name = 'PayPalEventError';
    this.code = entry.code;
  }
}

/** A reported amount this service can price: a valid non-negative amount and a currency, else null (not priced). */
const paymentAmount = (m: { value?: string; currency_code?: string } | undefined) => {
  const cents = m?.value === undefined ? null : toCents(m.value.trim());
  return cents === null || !m?.currency_code ? null : { cents, currency: m.currency_code.toUpperCase() };
};

const firstProblem = (err: z.ZodError): string => {
  const issue = err.issues[0];
  return `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`;
};

/** Reads the parts of a verified PayPal event this service needs (spec 2.8); throws PayPalEventError when it cannot. */
export function parsePayPalEvent(body: unknown): PayPalEvent {
  const head = envelope.safeParse(body);
  if (!head.success)
    throw new PayPalEventError(PLATFORM_ERRORS.INVALID_EVENT, `Not a PayPal event (${firstProblem(head.error)})`);
  const { id: eventId, event_type: eventType, create_time } = head.data;
  const resource = (body as { resource?: unknown }).resource;

  if ((PAYPAL_SUBSCRIPTION_EVENTS as readonly string[]).includes(eventType)) {
    const r = subscriptionResource.safeParse(resource);
    if (!r.success)
      throw new PayPalEventError(
        PLATFORM_ERRORS.INVALID_EVENT,
        `Invalid subscription resource (${firstProblem(r.error)})`,
      );
    const s = r.data;
    if (!s.custom_id?.trim()) {
      throw new PayPalEventError(
        BILLING_ERRORS.MISSING_CUSTOM_ID,
        'resource.custom_id is required: it names the user the subscription belongs to',
      );
    }
    return {
      kind: 'subscription',
      eventId,
      eventType: eventType as PayPalSubscriptionEventType,
      createTime: create_time ?? null,
      change: {
        subscriptionId: s.id,
        status: s.status.toUpperCase(),
        planId: s.plan_id ?? null,
        customId: s.custom_id.trim(),
        updatedAt: s.update_time ?? s.status_update_time ?? create_time ?? null,
        statusUpdatedAt: s.status_update_time ?? null,
        nextBillingTime: s.billing_info?.next_billing_time ?? null,
        lastPaymentAt: s.billing_info?.last_payment?.time ?? null,
        lastPaymentAmount: paymentAmount(s.billing_info?.last_payment?.amount),
        lastFailedPaymentAt: s.billing_info?.last_failed_payment?.time ?? null,
        lastFailureReason: s.billing_info?.last_failed_payment?.reason_code ?? null,
      },
    };
  }

  if (eventType === PAYPAL_SALE_COMPLETED) {
    const r = saleResource.safeParse(resource);
    if (!r.success)
      throw new PayPalEventError(PLATFORM_ERRORS.INVALID_EVENT, `Invalid sale resource (${firstProblem(r.error)})`);
    const s = r.data;
    return {
      kind: 'sale',
      eventId,
      eventType: PAYPAL_SALE_COMPLETED,
      createTime: create_time ?? null,
      sale: {
        saleId: s.id,
        state: s.state ?? null,
        subscriptionId: s.billing_agreement_id?.trim() || null,
        custom: s.custom?.trim() || null,
        createdAt: s.create_time ?? create_time ?? null,
        total: s.amount.total,
        currency: s.amount.currency.toUpperCase(),
      },
    };
  }
  if (eventType === PAYPAL_SALE_REFUNDED) {
    const r = refundResource.safeParse(resource);
    if (!r.success)
      throw new PayPalEventError(PLATFORM_ERRORS.INVALID_EVENT, `Invalid refund resource (${firstProblem(r.error)})`);
    const cents = toCents(r.data.amount.total.trim().replace(/^-/, ''));
    if (cents === null)
      throw new PayPalEventError(
        PLATFORM_ERRORS.INVALID_EVENT,
        `Invalid refund resource (amount.total: not an amount: ${r.data.amount.total})`,
      );
    return {
      kind: 'refund',
      eventId,
      eventType,
      createTime: create_time ?? null,
      refund: {
        refundId: r.data.id,
        saleId: r.data.sale_id,
        kind: 'refund',
        state: r.data.state ?? null,
        amountCents: cents,
        currency: r.data.amount.currency.toUpperCase(),
      },
    };
  }

  if (eventType === PAYPAL_SALE_REVERSED) {
    const r = saleResource.safeParse(resource);
    if (!r.success)
      throw new PayPalEventError(PLATFORM_ERRORS.INVALID_EVENT, `Invalid sale resource (${firstProblem(r.error)})`);
    return {
      kind: 'refund',
      eventId,
      eventType,
      createTime: create_time ?? null,
      // One reversal per sale: keyed by the sale, so a repeated reversal event of the same sale takes nothing twice.
      refund: {
        refundId: `reversal:${r.data.id}`,
        saleId: r.data.id,
        kind: 'reversal',
        state: r.data.state ?? null,
        amountCents: null,
        currency: r.data.amount.currency.toUpperCase(),
      },
    };
  }
  if (eventType === PAYPAL_DISPUTE_CREATED || eventType === PAYPAL_DISPUTE_RESOLVED) {
    const r = disputeResource.safeParse(resource);
    if (!r.success)
      throw new PayPalEventError(PLATFORM_ERRORS.INVALID_EVENT, `Invalid dispute resource (${firstProblem(r.error)})`);
    const d = r.data;
    const amount = d.dispute_amount?.value === undefined ? null : toCents(d.dispute_amount.value.trim());
    if (d.dispute_amount?.value !== undefined && amount === null)
      throw new PayPalEventError(
        PLATFORM_ERRORS.INVALID_EVENT,
        `Invalid dispute resource (dispute_amount.value: not an amount: ${d.dispute_amount.value})`,
      );
    return {
      kind: 'dispute',
      eventId,
      eventType,
      createTime: create_time ?? null,
      dispute: {
        disputeId: d.dispute_id,
        saleId:
          d.disputed_transactions?.find((t) => t.seller_transaction_id?.trim())?.seller_transaction_id?.trim() ?? null,
        amountCents: amount,
        currency: d.dispute_amount?.currency_code?.toUpperCase() ?? null,
        resolved: eventType === PAYPAL_DISPUTE_RESOLVED,
        outcomeCode: d.dispute_outcome?.outcome_code?.trim().toUpperCase() || null,
        updatedAt: d.update_time ?? create_time ?? null,
      },
    };
  }
  return { kind: 'unhandled', eventId, eventType };
}
