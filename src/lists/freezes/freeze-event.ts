import type { FreezeSource } from '../workflow-types';

/** The chains and tokens whose issuers' freezes are read as they happen: the EVM networks and TRON. */
export type FreezeChain = FreezeSource;
export type FreezeToken = 'USDT' | 'USDC';

/**
 * One issuer event, decoded: `add` freezes an address (Tether's AddedBlackList, Circle's Blacklisted), `remove`
 * releases it (RemovedBlackList, UnBlacklisted), `destroy` burns its frozen balance (DestroyedBlackFunds).
 */
export interface FreezeEvent {
  chain: FreezeChain;
  token: FreezeToken;
  kind: 'add' | 'remove' | 'destroy';
  /** As the reference data spell it: lower-case 0x on the EVM networks, base58 T… on TRON. */
  address: string;
  /** Destroyed balance in the token's smallest unit (6 decimals for both); destroy only. */
  amount?: bigint;
  /** Where the event sits: block, then its index (EVM: in the block; TRON: in its transaction). */
  block: bigint;
  index: number;
  /** The block's time, UTC ISO 8601 to the second, as the shipped CSV writes it. */
  at: string;
  tx: string;
}

/** Oldest first, by where the events sit on the chain. */
export function byPosition(a: FreezeEvent, b: FreezeEvent): number {
  if (a.block !== b.block) return a.block < b.block ? -1 : 1;
  return a.index - b.index;
}

/** A time in ms since the epoch → `2025-09-12T08:30:00Z` (the shipped CSV's form: no milliseconds). */
export const isoSeconds = (epochMs: number): string => new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
