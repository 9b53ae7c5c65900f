import { abortableSleep } from './abortable-sleep';

export interface TokenBucket {
  /** Resolves when a request may go out; rejects with the signal's reason if it aborts while waiting. */
  take(signal?: AbortSignal): Promise<void>;
}

/**
 * A provider's published rate (requests per second, burst = the same number). One bucket per provider
 * and credential, shared by every caller of it: Etherscan counts one key across all chains.
 */
export function createTokenBucket(ratePerSecond: number, now: () => number = Date.now): TokenBucket {
  if (!(ratePerSecond > 0)) throw new RangeError(`rate must be positive, got ${ratePerSecond}`);
  let tokens = ratePerSecond;
  let refilledAt = now();
  return {
    async take(signal) {
      for (;;) {
        const t = now();
        tokens = Math.min(ratePerSecond, tokens + ((t - refilledAt) / 1000) * ratePerSecond);
        refilledAt = t;
        if (tokens >= 1) {
          tokens -= 1;
          return;
        }
        await abortableSleep(Math.ceil(((1 - tokens) / ratePerSecond) * 1000), signal);
      }
    },
  };
}
