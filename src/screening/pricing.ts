/**
 * What a completed analysis costs (documented in the README, "Credits"):
 * 1 credit minimum, which covers screening against the lists and reading the target itself (depth 0 and 1),
 * plus 1 credit for every further hop the exposure crawl reaches. A failed analysis costs nothing.
 * Pure and dependency-free: the workflow bundle imports it.
 */
export const MINIMUM_CHARGE = 1;
export const COST_RULE =
  '1 credit (lists and the target itself) + 1 credit per exposure hop reached beyond the first level';

export function analysisCost(depthReached: number): number {
  return MINIMUM_CHARGE + Math.max(0, Math.floor(depthReached) - 1);
}

/** The deepest crawl (≤ planned) whose cost fits in `credits`; -1 when not even the minimum fits. */
export function deepestAffordableDepth(credits: number, plannedDepth: number): number {
  for (let depth = plannedDepth; depth >= 0; depth--) {
    if (analysisCost(depth) <= credits) return depth;
  }
  return -1;
}

/** Scoring a stored job again under another policy (POST /kyt/job/:id/rescore): no chain call, no crawl. */
export const RESCORE_PRICE = 1;
