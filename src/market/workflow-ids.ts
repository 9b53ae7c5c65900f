/** One live candle sync per exchange, cluster-wide: a later start replaces the running one (its config wins). */
export const marketSyncWorkflowId = (connector: string): string => `market-sync:${connector}`;
