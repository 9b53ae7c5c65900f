/**
 * The two heuristics strong enough to merge clusters. Change-output guesses (change-output.ts) are not among them:
 * one wrong change link joins two strangers for good and would carry a sanctions label across (entities notes:
 * Möser and Narayanan's "Mt. Gox" grew from 13 M to 281 M addresses once change links were added).
 */
export type LinkHeuristic = 'common_input' | 'deposit_address';

/** One piece of evidence that `a` and `b` belong to one entity: the heuristic and the transaction that showed it. */
export interface ClusterLink {
  a: string;
  b: string;
  heuristic: LinkHeuristic;
  txid: string;
}
