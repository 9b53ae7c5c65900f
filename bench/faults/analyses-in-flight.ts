import type { FaultStack } from './fault-stack';
import { sleep } from './report';

/**
 * Waits (up to 30 s) until at least `n` chain requests are held by the slow node, so a fault injected
 * next lands inside analyses rather than in a gap between them; returns how many there were.
 */
export async function whenAnalysesInFlight(stack: FaultStack, n: number): Promise<number> {
  const deadline = Date.now() + 30_000;
  while (stack.chainCallsInFlight() < n && Date.now() < deadline) await sleep(5);
  return stack.chainCallsInFlight();
}
