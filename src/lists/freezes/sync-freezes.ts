import type { Pool } from 'pg';
import { AppError } from '../../platform/errors';
import type { Logger } from '../../platform/logging/logger';
import { createEvmFreezeNode } from './evm-freeze-node';
import type { FreezeSyncSettings } from './freeze-settings';
import { createFreezeStore } from './freeze-store';
import type { FreezeSource, FreezeSyncResult } from './freeze-sync-types';
import { syncEvmFreezes } from './sync-evm-freezes';
import { syncTronFreezes } from './sync-tron-freezes';
import { tronAddressOf } from './tron-hex-address';
import { createTronFreezeEvents } from './trongrid-freeze-events';
import { isFreezeSource } from '../workflow-types';
import { LISTS_ERRORS } from '../error-codes';
import { EVM_NETWORKS, SCREENING_ERRORS } from '../../screening';

export interface FreezeSyncDeps {
  pool: Pool;
  settings: FreezeSyncSettings;
  log?: Logger;
  signal?: AbortSignal;
  progress?: () => void;
  /** TRON's clock (tests pin it to the recorded pages' time). */
  now?: () => number;
  /** TronGrid page size (tests page small). */
  tronPageSize?: number;
}

/**
 * One chain's freeze events, from each contract's cursor to what the chain calls final. `source` only names the
 * chain (it may come from a forged workflow input): nodes, keys and contracts are the worker's own settings.
 */
export async function syncFreezes(deps: FreezeSyncDeps, source: FreezeSource): Promise<FreezeSyncResult> {
  if (!isFreezeSource(source))
    throw new AppError(
      LISTS_ERRORS.FREEZE_SOURCE_UNKNOWN,
      `${JSON.stringify(source)?.slice(0, 40)} is not a freeze source`,
    );
  const store = createFreezeStore(deps.pool);
  const common = { store, log: deps.log, signal: deps.signal, progress: deps.progress };
  let contracts: FreezeSyncResult['contracts'];
  // A chain without settings here may have them on another worker of the fleet: CHAIN_UNAVAILABLE is retried, and
  // a retry may land there.
  if (source === 'tron') {
    const settings = deps.settings.tron;
    if (!settings)
      throw new AppError(SCREENING_ERRORS.CHAIN_UNAVAILABLE, 'no TronGrid API on this worker (TRON_API_URL)');
    const events = createTronFreezeEvents(
      { apiUrl: settings.apiUrl, apiKey: settings.apiKey, timeoutMs: settings.timeoutMs, pageSize: deps.tronPageSize },
      tronAddressOf,
    );
    contracts = await syncTronFreezes({ ...common, events, now: deps.now ?? Date.now }, settings);
  } else {
    const settings = deps.settings.evm[source];
    if (!settings)
      throw new AppError(
        SCREENING_ERRORS.CHAIN_UNAVAILABLE,
        `no ${source} node with an issuer contract on this worker (${EVM_NETWORKS[source].rpcVariable}, ` +
          'FREEZES_EVM_CONTRACTS)',
      );
    const node = createEvmFreezeNode({ chain: source, rpcUrl: settings.rpcUrl, timeoutMs: settings.timeoutMs });
    contracts = await syncEvmFreezes({ ...common, node }, settings);
  }
  const summary = {
    source,
    contracts: contracts.map((c) => ({ token: c.token, from: c.from, to: c.to, events: c.events, changed: c.changed })),
  };
  // A run that changed nothing is the usual case every few minutes: not worth a line at info.
  if (contracts.some((c) => c.changed > 0)) deps.log?.info('stablecoin freezes applied', summary);
  else deps.log?.debug('stablecoin freezes read, nothing new', summary);
  return { source, contracts };
}
