import { raceSignal } from '../../platform/abort/deadline';
import { type ChainConfigurationError, ChainUnavailableError } from './chain-client';

/**
 * Resolves once the node has said it serves the configured chain;
 * throws ChainConfigurationError when it serves another.
 */
export interface NodeIdentityGuard {
  ensure(signal: AbortSignal): Promise<void>;
}

/**
 * Asks the node who it is on first use (one call, shared by concurrent callers): `identify` answers null for a match
 * or the refusal for a node of another chain or network. A match is remembered for the client's life and so is a
 * mismatch; no answer (an outage, the asking caller's timeout) proves nothing, so the call goes ahead and the next use
 * asks again. Other errors (refused credentials) go to the caller as they are.
 */
export function createNodeIdentityGuard(
  identify: (signal: AbortSignal) => Promise<ChainConfigurationError | null>,
): NodeIdentityGuard {
  let verdict: 'match' | ChainConfigurationError | undefined;
  let pending: Promise<void> | undefined;

  async function ask(signal: AbortSignal): Promise<void> {
    try {
      verdict = (await identify(signal)) ?? 'match';
    } catch (err) {
      // The asking caller's deadline is not the others' (they share this call): nobody learns anything.
      if (signal.aborted || err instanceof ChainUnavailableError) return;
      throw err;
    }
  }

  return {
    async ensure(signal) {
      if (verdict === undefined) {
        pending ??= ask(signal).finally(() => {
          pending = undefined;
        });
        await raceSignal(pending, signal);
      }
      if (verdict !== undefined && verdict !== 'match') throw verdict;
    },
  };
}
