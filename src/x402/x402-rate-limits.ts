import type { Request, Response } from 'express';
import type { Pool } from 'pg';
import { createTieredLimiter, type TieredLimiter } from '../platform/rate-limit/limiter';
import { applyRateLimitDecision } from '../platform/rate-limit/middleware';
import type { PaymentIdentity } from './payment-identity';

/**
 * The two budgets of paid report attempts (requests carrying a payment), each per minute with its counter in
 * Postgres (every api instance spends the same one): per client address, spent before the payment is verified (the
 * facilitator's verify is the costly step, and nothing about the payer is known yet), and per payer, spent once the
 * header is decoded. A request over either is 429 RATE_LIMITED with Retry-After; nothing is verified, claimed or
 * charged. Counter keys: `x402:address:<req.ip>`, `x402:payer:<network>:<payer, lower-case>`.
 */
export interface X402RateLimits {
  /** Throws the 429 when the client address is over its budget. */
  byAddress(req: Request, res: Response): Promise<void>;
  /** Throws the 429 when the payer the payment names is over its budget. */
  byPayer(res: Response, payment: Pick<PaymentIdentity, 'network' | 'payer'>): Promise<void>;
}

/** A fixed figure per minute for every principal; 0 turns the limit off (nothing is counted). */
function perMinute(pool: Pool, limit: number): TieredLimiter | null {
  return limit === 0 ? null : createTieredLimiter({ store: 'postgres', pool, limitOf: () => limit });
}

export function createX402RateLimits(deps: {
  pool: Pool;
  /** X402_RATE_LIMIT_PER_IP_PER_MINUTE */
  perAddressPerMinute: number;
  /** X402_RATE_LIMIT_PER_PAYER_PER_MINUTE */
  perPayerPerMinute: number;
}): X402RateLimits {
  const address = perMinute(deps.pool, deps.perAddressPerMinute);
  const payer = perMinute(deps.pool, deps.perPayerPerMinute);
  return {
    async byAddress(req, res) {
      if (!address) return;
      const decision = await address.consume({ key: `x402:address:${req.ip ?? 'unknown'}`, tier: 'free' });
      applyRateLimitDecision(res, decision, {
        limit: 'x402 limit',
        counts: 'paid report attempts',
        whose: 'this client address',
      });
    },
    async byPayer(res, payment) {
      if (!payer) return;
      const key = `x402:payer:${payment.network}:${payment.payer.toLowerCase()}`;
      applyRateLimitDecision(res, await payer.consume({ key, tier: 'free' }), {
        limit: 'x402 limit',
        counts: 'paid report attempts',
        whose: 'this payer',
      });
    },
  };
}
