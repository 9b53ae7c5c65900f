/**
 * What a completed job costs (documented in the README, "Credits"):
 * 1 credit minimum, which covers screening against the reference data and reading the target itself (depth 0 and 1),
 * plus 1 credit for every further hop its analysis' exposure crawl reaches. A failed job costs nothing.
 * Pure and dependency-free: the workflow bundle imports it.
 */
export const MINIMUM_CHARGE = 1;
export const CREDITS_PER_FURTHER_HOP = 1;
/** "1 credit", "2 credits": prices in words (the API's descriptions state them from the figures too). */
export const creditsWord = (n: number): string => `${n} credit${n === 1 ? '' : 's'}`;
/** The rule in words, as each answer's `cost.rule` states it: written from the two figures, never beside them. */
export const COST_RULE =
  `${creditsWord(MINIMUM_CHARGE)} (lists and the target itself) + ` +
  `${creditsWord(CREDITS_PER_FURTHER_HOP)} per exposure hop reached beyond the first level`;

export function jobCost(depthReached: number): number {
  return MINIMUM_CHARGE + CREDITS_PER_FURTHER_HOP * Math.max(0, Math.floor(depthReached) - 1);
}

/** The deepest crawl (≤ planned) whose cost fits in `credits`; -1 when not even the minimum fits. */
export function deepestAffordableDepth(credits: number, plannedDepth: number): number {
  for (let depth = plannedDepth; depth >= 0; depth--) {
    if (jobCost(depth) <= credits) return depth;
  }
  return -1;
}

/** Scoring a stored job again under another policy (POST /kyt/job/:id/rescore): no chain call, no crawl. */
export const RESCORE_PRICE = 1;
