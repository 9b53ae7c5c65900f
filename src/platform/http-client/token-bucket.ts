import { abortableSleep } from './abortable-sleep';

export interface TokenBucket {
  /** Resolves when a request may go out; rejects with the signal's reason if it aborts while waiting. */
  take(signal?: AbortSignal): Promise<void>;
  /** Spends a token if one is there now; false (nothing spent) when the budget is used up. Never waits. */
  tryTake(): boolean;
}

/**
 * A provider's published rate (requests per second; burst = the same number unless given, at least 1). One
 * bucket per provider and credential, shared by every caller of it: Etherscan counts one key across all chains.
 * Callers that must not queue (a budget an attacker could fill) use tryTake and refuse instead of waiting.
 */
export function createTokenBucket(
  ratePerSecond: number,
  now: () => number = Date.now,
  burst: number = Math.max(1, ratePerSecond),
): TokenBucket {
  if (!(ratePerSecond > 0)) throw new RangeError(`rate must be positive, got ${ratePerSecond}`);
  if (!(burst >= 1)) throw new RangeError(`burst must be at least 1, got ${burst}`);
  let tokens = burst;
  let refilledAt = now();
  const refill = (): void => {
    const t = now();
    tokens = Math.min(burst, tokens + ((t - refilledAt) / 1000) * ratePerSecond);
    refilledAt = t;
  };
  const tryTake = (): boolean => {
    refill();
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
  return {
    tryTake,
    async take(signal) {
      while (!tryTake()) await abortableSleep(Math.ceil(((1 - tokens) / ratePerSecond) * 1000), signal);
    },
  };
}
