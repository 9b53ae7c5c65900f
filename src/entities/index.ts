/**
 * What other parts use of wallet clustering: the Postgres store, the budgeted expansion analyses run, and the
 * domain rules (CoinJoin shapes, common-input and deposit-address links, the weak change guesses) the benchmark
 * measures.
 */
export {
  type Cluster,
  type ClusterStore,
  createClusterStore,
  type ExplainStep,
  type StoredLink,
} from './cluster-store';
export { DEFAULT_PAGE_LIMIT, type ExpandClusterInput, type ExpandClusterResult, expandCluster } from './expand-cluster';
export { MIN_SENDERS_FOR_HOT_WALLET } from './expansion/account-member';
export { isRoundAmount, oneTimeChange, ROUND_UNIT_SATS, roundAmountChange } from './domain/change-output';
export type { ClusterLink, LinkHeuristic } from './domain/cluster-link';
export { type CoinJoinShape, coinJoinShape } from './domain/coinjoin';
export { commonInputLinks } from './domain/common-input';
export {
  DEPOSIT_DEFAULTS,
  type DepositForward,
  type DepositForwardOptions,
  depositForward,
} from './domain/deposit-address';
export { type MergePlan, planMerges } from './domain/merge-plan';
export { UnionFind } from './domain/union-find';
export { createClusterPort } from './cluster-port';
export { createClustersRouter, type ClustersRouterDeps } from './clusters-routes';
export type { clusterResponse } from './clusters-views';
