/** Input and result of a freeze sync run (schedule lists-refresh:freezes). Types only: workflows import them. */
import type { FreezeSource } from '../workflow-types';

export type { FreezeSource } from '../workflow-types';

export interface FreezeSyncInput {
  /** The chains this run reads, as the scheduling worker's configuration had them. */
  sources: FreezeSource[];
}

/** What one run did for one contract. */
export interface ContractSyncResult {
  chain: FreezeSource;
  token: string;
  contract: string;
  /** Where this run started and how far it got: blocks (EVM) or block times in ms (TRON), as strings. */
  from: string;
  to: string | null;
  windows: number;
  events: number;
  /** Rows of ref_stablecoin_blacklist the events changed (an event not newer than its row's changes nothing). */
  changed: number;
  /** False when the run stopped at its window limit: the next one goes on. */
  caughtUp: boolean;
}

export interface FreezeSyncResult {
  source: FreezeSource;
  contracts: ContractSyncResult[];
}
