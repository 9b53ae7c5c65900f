import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { z } from 'zod';
import { currentUser, requireScope } from '../identity';
import { formatCents } from './money';
import { isPaymentFlagged } from './subscription-state';
import type { BillingConfig } from './config';
import { payfastPrice, type PackageStore } from './packages-store';
import type { PayFastCheckoutStore } from './payfast/payfast-checkouts-store';
import type { SubscriptionStore } from './subscriptions-store';
import { signCheckoutFields } from './payfast/checkout-signature';
import { payfastProcessUrl } from './payfast/server-validation';
import { flatError, notFound, parseOrThrow } from '../platform/http/errors';
import { packageSchema, packageView } from './packages-routes';
import { BILLING_ERRORS } from './error-codes';

export interface BillingRouterDeps {
  packages: PackageStore;
  payfastCheckouts: PayFastCheckoutStore;
  subscriptions: SubscriptionStore;
  config: Pick<
    BillingConfig,
    | 'PAYFAST_MODE'
    | 'PAYFAST_MERCHANT_ID'
    | 'PAYFAST_MERCHANT_KEY'
    | 'PAYFAST_MERCHANT_PASSPHRASE'
    | 'PAYFAST_NOTIFY_URL'
    | 'PAYFAST_RETURN_URL'
    | 'PAYFAST_CANCEL_URL'
  >;
}

export const checkoutBody = z.object(
  { packageId: z.string({ error: 'a credit package id (GET /api/v1/credits/packages)' }).trim().min(1).max(40) },
  { error: 'a JSON object' },
);

/** PayFast subscription frequency codes: 3 = monthly, 6 = annual; cycles 0 = until cancelled. */
const SUBSCRIPTION_FIELDS = {
  monthly: { subscription_type: '1', frequency: '3', cycles: '0' },
  annual: { subscription_type: '1', frequency: '6', cycles: '0' },
} as const;

export const checkoutResponse = z.object({
  success: z.literal(true),
  data: z.object({
    mPaymentId: z.uuid(),
    package: packageSchema,
    action: z.url().meta({ description: "PayFast's process URL the form is posted to" }),
    method: z.literal('POST'),
    fields: z.record(z.string(), z.string()).meta({
      description: 'The signed form fields, signature last (merchant_id, m_payment_id, amount, custom_str1, …)',
    }),
  }),
});
export const subscriptionListResponse = z.object({
  success: z.literal(true),
  data: z.array(
    z.object({
      provider: z.literal('paypal'),
      subscriptionId: z.string(),
      status: z.string(),
      planId: z.string().nullable(),
      packageId: z.string().nullable(),
      nextBillingTime: z.string().nullable(),
      cancelledAt: z.string().nullable(),
      paymentFailed: z.boolean(),
      lastFailureReason: z.string().nullable(),
    }),
  ),
});

/** Signed-in billing: start a PayFast checkout, see one's subscriptions. */
export function createBillingRouter(deps: BillingRouterDeps): Router {
  const router = Router();
  const c = deps.config;

  /**
   * Records the checkout (m_payment_id → user, package, exact amount) and returns the signed form the
   * client posts to PayFast. The ITN is later credited only against this record.
   */
  router.post('/billing/payfast/checkout', requireScope('billing'), async (req, res) => {
    const { packageId } = parseOrThrow(checkoutBody, req.body);
    if (!c.PAYFAST_MERCHANT_ID || !c.PAYFAST_MERCHANT_KEY || !c.PAYFAST_MERCHANT_PASSPHRASE) {
      throw flatError(
        BILLING_ERRORS.BILLING_NOT_CONFIGURED,
        'PayFast checkout is not configured on this deployment (PAYFAST_MERCHANT_ID, PAYFAST_MERCHANT_KEY, ' +
          'PAYFAST_MERCHANT_PASSPHRASE)',
      );
    }
    const pkg = await deps.packages.findById(packageId);
    const price = pkg && payfastPrice(pkg);
    if (!pkg || !price) throw notFound(`Credit package ${packageId} (sold through PayFast)`);
    const user = currentUser(res);
    const mPaymentId = randomUUID();
    await deps.payfastCheckouts.create({
      mPaymentId,
      userId: user.id,
      packageId: pkg.id,
      amountCents: price.amountCents,
      currency: price.currency,
    });

    const signed = signCheckoutFields(
      {
        merchant_id: c.PAYFAST_MERCHANT_ID,
        merchant_key: c.PAYFAST_MERCHANT_KEY,
        return_url: c.PAYFAST_RETURN_URL,
        cancel_url: c.PAYFAST_CANCEL_URL,
        notify_url: c.PAYFAST_NOTIFY_URL,
        email_address: user.email ?? undefined,
        m_payment_id: mPaymentId,
        amount: formatCents(price.amountCents),
        item_name: `${pkg.name} (${pkg.credits} credits)`,
        custom_str1: user.clerkUserId ?? user.id,
        ...(pkg.billing === 'one_time' ? {} : SUBSCRIPTION_FIELDS[pkg.billing]),
      },
      c.PAYFAST_MERCHANT_PASSPHRASE,
    );
    res.status(201).json({
      success: true,
      data: {
        mPaymentId,
        package: packageView(pkg),
        action: payfastProcessUrl(c.PAYFAST_MODE),
        method: 'POST',
        fields: Object.fromEntries([...signed.fields, ['signature', signed.signature]]),
      },
    });
  });

  router.get('/billing/subscriptions', requireScope('read'), async (_req, res) => {
    const subscriptions = await deps.subscriptions.listForUser(currentUser(res).id);
    res.json({
      success: true,
      data: subscriptions.map((s) => ({
        provider: 'paypal',
        subscriptionId: s.subscriptionId,
        status: s.status,
        planId: s.planId,
        packageId: s.packageId,
        nextBillingTime: s.nextBillingTime,
        cancelledAt: s.cancelledAt,
        paymentFailed: isPaymentFlagged(s),
        lastFailureReason: s.lastFailureReason,
      })),
    });
  });
  return router;
}
