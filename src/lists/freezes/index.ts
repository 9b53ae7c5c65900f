/** Stablecoin freezes read from the chain (part of the sanctions-lists feature): what the entry points use. */
export {
  freezeSyncSettings,
  freezeSources,
  type EvmNodeFreezeSettings,
  type FreezeConfig,
  type FreezeSyncSettings,
} from './freeze-settings';
export { ensureFreezeSync } from './freeze-sync-schedule';
export { syncFreezes, type FreezeSyncDeps } from './sync-freezes';
export type { FreezeSyncInput, FreezeSyncResult, FreezeSource } from './freeze-sync-types';
