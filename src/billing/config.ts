import { z } from 'zod';
import { configSlice, type SliceConfig } from '../platform/config/config-slice';
import { envFlag } from '../platform/config/env-readers';

/** The shortest PayFast passphrase accepted: the MD5 signature is only as strong as this secret. */
export const PAYFAST_PASSPHRASE_MIN_LENGTH = 12;

/** What authenticates a payment provider's deliveries: production must not take payments without it. */
const PRODUCTION_REQUIRED = ['PAYPAL_WEBHOOK_ID', 'PAYFAST_MERCHANT_ID', 'PAYFAST_MERCHANT_PASSPHRASE'] as const;

/** PayPal subscriptions and PayFast payments: who may deliver their events, and how they are checked. */
const variables = z.object({
  PAYPAL_MODE: z.enum(['sandbox', 'live']).default('sandbox'),
  /** The id PayPal gave the webhook; it is part of every signed message, so it never comes from the request. */
  PAYPAL_WEBHOOK_ID: z.string().min(1).max(50).optional(),
  /** Only for the verify-webhook-signature fallback, used when a signing certificate cannot be fetched. */
  PAYPAL_CLIENT_ID: z.string().min(1).optional(),
  PAYPAL_CLIENT_SECRET: z.string().min(1).optional(),
  /** How soon a sale whose subscription is not known yet (it arrived before ACTIVATED) is tried again. */
  PAYPAL_UNKNOWN_SUBSCRIPTION_RETRY_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** How long a cert URL whose certificate could not be loaded is not fetched again (forged URLs then cost nothing). */
  PAYPAL_CERT_FAILURE_TTL_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(300_000),
  /** Budget of verify-webhook-signature calls (authenticated, made only when a certificate cannot be loaded). */
  PAYPAL_POSTBACKS_PER_MINUTE: z.coerce.number().int().min(1).max(6_000).default(10),

  PAYFAST_MODE: z.enum(['sandbox', 'live']).default('sandbox'),
  PAYFAST_MERCHANT_ID: z
    .string()
    .regex(/^[0-9]{1,20}$/, 'the numeric PayFast merchant id')
    .optional(),
  PAYFAST_MERCHANT_KEY: z.string().min(1).optional(),
  /**
   * Signs ITNs and checkouts. Anyone who knows it can forge a paid ITN, so it must not be guessable: at least
   * PAYFAST_PASSPHRASE_MIN_LENGTH characters (PayFast's own sandbox passphrase has 12).
   */
  PAYFAST_MERCHANT_PASSPHRASE: z
    .string()
    .min(
      PAYFAST_PASSPHRASE_MIN_LENGTH,
      `at least ${PAYFAST_PASSPHRASE_MIN_LENGTH} characters: anyone who guesses it can forge a paid ITN ` +
        '(set the same passphrase in the PayFast dashboard)',
    )
    .optional(),
  /** Accept ITNs only from PayFast's published ranges and hosts (default: on in production). */
  PAYFAST_VERIFY_SOURCE: envFlag.optional(),
  /** Confirm every ITN with PayFast's /eng/query/validate before granting (default: on in production). */
  PAYFAST_SERVER_VALIDATION: envFlag.optional(),
  PAYFAST_NOTIFY_URL: z.string().url().optional(),
  PAYFAST_RETURN_URL: z.string().url().optional(),
  PAYFAST_CANCEL_URL: z.string().url().optional(),
  /** How long POST /billing/payfast/refunds waits for the refund to be applied before answering 202 (pending). */
  PAYFAST_REFUND_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
});

export const billingConfigSlice = configSlice({
  variables,
  problems: (config, nodeEnv) =>
    nodeEnv === 'production'
      ? PRODUCTION_REQUIRED.filter((name) => !config[name]).map((name) => `${name}: required when NODE_ENV=production`)
      : [],
  /** The PayFast safeguards that need the internet are on in production unless switched off, off elsewhere. */
  derive: (config, nodeEnv) => ({
    PAYFAST_VERIFY_SOURCE: config.PAYFAST_VERIFY_SOURCE ?? nodeEnv === 'production',
    PAYFAST_SERVER_VALIDATION: config.PAYFAST_SERVER_VALIDATION ?? nodeEnv === 'production',
  }),
});

export type BillingConfig = SliceConfig<typeof billingConfigSlice>;
