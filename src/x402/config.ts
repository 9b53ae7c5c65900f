import { z } from 'zod';
import { configSlice, type SliceConfig } from '../platform/config/config-slice';

/** Where pay-per-use reports are paid, who settles their payments, and how many attempts a client or payer may make. */
const variables = z.object({
  /** Where pay-per-use report payments (USDC on Base) go; without it the report routes answer 503. */
  X402_PAY_TO: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'an EVM address (0x + 40 hex)')
    .optional(),
  /** A remote x402 facilitator (e.g. CDP) … */
  X402_FACILITATOR_URL: z.string().url().optional(),
  /** … or an in-process facilitator that settles payments on this Base RPC with this funded key (it pays the gas). */
  X402_RPC_URL: z.string().url().optional(),
  X402_FACILITATOR_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'a 0x-prefixed 32-byte hex private key')
    .optional(),
  /** How long a paid KYT/KYA report may take before it is abandoned unpaid. */
  X402_REPORT_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(20_000),
  /**
   * Paid report attempts (requests carrying PAYMENT-SIGNATURE) one client address may make per minute, counted before
   * the payment is verified; and the ones naming one payer, counted once the header is decoded (0 = no limit).
   */
  X402_RATE_LIMIT_PER_IP_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(120),
  X402_RATE_LIMIT_PER_PAYER_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(60),
});

export const x402ConfigSlice = configSlice({ variables });

export type X402Config = SliceConfig<typeof x402ConfigSlice>;
