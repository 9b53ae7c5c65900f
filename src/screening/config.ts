import { z } from 'zod';
import { configSlice, type SliceConfig } from '../platform/config/config-slice';
import { envFlag } from '../platform/config/env-readers';
import { PUBLIC_ENDPOINTS } from './chains/public-endpoints';

/** Where EVM addresses' transfers are read from (chains/evm-transfer-source.ts): auto picks the best available. */
export const EVM_TRANSFER_SOURCE_MODES = ['auto', 'otterscan', 'etherscan', 'logs'] as const;
/** The bitcoin networks a deployment may screen (chains/bitcoin-address.ts): BITCOIN_NETWORK. */
export const BITCOIN_NETWORKS = ['mainnet', 'testnet', 'regtest', 'simnet'] as const;

/** The chains read, how jobs run and are swept, and the reference data jobs are scored against. */
const variables = z.object({
  /** Each EVM network's JSON-RPC endpoint (chains/evm-networks.ts): its `eth_chainId` must be the network's. */
  ETHEREUM_RPC_URL: z.string().url().optional(),
  BSC_RPC_URL: z.string().url().optional(),
  ARBITRUM_RPC_URL: z.string().url().optional(),
  BASE_RPC_URL: z.string().url().optional(),
  OPTIMISM_RPC_URL: z.string().url().optional(),
  POLYGON_RPC_URL: z.string().url().optional(),
  AVALANCHE_RPC_URL: z.string().url().optional(),
  LINEA_RPC_URL: z.string().url().optional(),
  /** Esplora REST base URL (self-hosted electrs, mempool.space/api, blockstream.info/api). */
  BITCOIN_ESPLORA_URL: z.string().url().optional(),
  /**
   * A bitcoin node's JSON-RPC (http://user:pass@host:port) with an address index (btcd --txindex --addrindex): read
   * instead of Esplora when both are set. The userinfo is sent as Basic authorization.
   */
  BITCOIN_RPC_URL: z.string().url().optional(),
  /**
   * The network whose addresses the api accepts (a regtest address is a 400 on mainnet, and the other way round) and
   * the bitcoin client reads; the BITCOIN_RPC_URL node must run it.
   */
  BITCOIN_NETWORK: z.enum(BITCOIN_NETWORKS).default('mainnet'),
  /**
   * Each other UTXO network's Esplora-compatible API root (chains/utxo-networks.ts), e.g.
   * https://litecoinspace.org/api: read with bitcoin's client, mainnet addresses only.
   */
  LITECOIN_ESPLORA_URL: z.string().url().optional(),
  BITCOIN_CASH_ESPLORA_URL: z.string().url().optional(),
  DOGECOIN_ESPLORA_URL: z.string().url().optional(),
  /** TronGrid-compatible API base URL (v1 + FullNode /wallet); TRON_API_KEY is sent as TRON-PRO-API-KEY. */
  TRON_API_URL: z.string().url().optional(),
  TRON_API_KEY: z.string().min(1).optional(),
  SOLANA_RPC_URL: z.string().url().optional(),
  /** rippled/Clio JSON-RPC over HTTP (s2.ripple.com or xrplcluster.com for full history). */
  XRPL_RPC_URL: z.string().url().optional(),
  /** How long a cached address page is served before the newest page is read and merged in (0 = always read). */
  CHAIN_CACHE_TRANSFERS_TTL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3_600_000)
    .default(3_600_000),
  CHAIN_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * Where EVM addresses' transfers are read (the variable keeps its name): auto = Otterscan when the node has ots_*,
   * else Etherscan when a key is set, else eth_getLogs windows.
   */
  EVM_HISTORY_SOURCE: z.enum(EVM_TRANSFER_SOURCE_MODES).default('auto'),
  /** Etherscan v2 multichain key (chainid 1 and 56; BSC needs a paid plan); enables the Etherscan transfer source. */
  ETHERSCAN_API_KEY: z.string().min(1).optional(),
  ETHERSCAN_API_URL: z.string().url().default('https://api.etherscan.io/v2/api'),
  /** The key's plan limit, shared by both chains (docs.etherscan.io/rate-limits: free 3/s, Lite 5/s, Standard 10/s). */
  ETHERSCAN_RATE_PER_SECOND: z.coerce.number().positive().max(1_000).default(3),
  /** Transfers from eth_getLogs on a plain node: blocks per window, and how many windows back from the head. */
  EVM_LOGS_WINDOW_BLOCKS: z.coerce.number().int().min(1).max(1_000_000).default(5_000),
  EVM_LOGS_MAX_WINDOWS: z.coerce.number().int().min(1).max(1_000).default(10),

  CRAWL_TIMEOUT_DEFAULT_MS: z.coerce.number().int().min(1000).max(120_000).default(8000),
  CRAWL_TIMEOUT_MAX_MS: z.coerce.number().int().min(1000).max(600_000).default(120_000),
  /** How long the deprecated synchronous endpoints wait before answering 202 with the job to poll. */
  SYNC_ANALYZE_WAIT_MS: z.coerce.number().int().min(1000).max(600_000).default(120_000),
  /** A worker that stops heartbeating for this long is presumed dead and its analysis is retried elsewhere. */
  ANALYSIS_HEARTBEAT_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(10_000),
  /**
   * Requests that start paid work (job submits, the deprecated analyze endpoints, monitor create and re-screen) one
   * account may make per minute, all its keys and sessions together; 0 = no limit. The default is far above what a
   * client (or `npm run bench`, about 30 submits/s) sends: it stops one account from flooding Temporal, while
   * credits remain what bounds the work.
   */
  JOB_SUBMIT_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(6000),
  /**
   * The queued-job sweeper (a Temporal schedule run by the workers): every N seconds (0 = no schedule) it
   * starts the workflow of a job still queued RESTART_AFTER seconds after submission (its api process died
   * between the commit and the start), and releases and fails one queued longer than ABANDON_AFTER.
   */
  QUEUED_JOB_SWEEP_EVERY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  QUEUED_JOB_RESTART_AFTER_SECONDS: z.coerce.number().int().min(5).max(86_400).default(60),
  QUEUED_JOB_ABANDON_AFTER_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 86_400)
    .default(900),

  REFERENCE_DATA_DIR: z.string().min(1).default('data/risk'),
  /**
   * Skip loading the reference data at start (the api does not need it when the worker or `npm run
   * migrate` loads them).
   */
  LOAD_REFERENCE_DATA: envFlag.default(true),
  /**
   * `public` fills every chain endpoint left unset with a free public provider's (chains/public-endpoints.ts), for
   * trying the service on a machine with internet; refused in production. `none` (the default): only what is set.
   */
  CHAIN_ENDPOINTS: z.enum(['none', 'public']).default('none'),
});

type Variables = z.output<typeof variables>;
/** The chain endpoints a preset may fill (each optional: unset, the chain is screened on the reference data only). */
export type ChainEndpointVariable =
  | 'ETHEREUM_RPC_URL'
  | 'BSC_RPC_URL'
  | 'ARBITRUM_RPC_URL'
  | 'BASE_RPC_URL'
  | 'OPTIMISM_RPC_URL'
  | 'POLYGON_RPC_URL'
  | 'AVALANCHE_RPC_URL'
  | 'LINEA_RPC_URL'
  | 'BITCOIN_ESPLORA_URL'
  | 'LITECOIN_ESPLORA_URL'
  | 'BITCOIN_CASH_ESPLORA_URL'
  | 'DOGECOIN_ESPLORA_URL'
  | 'TRON_API_URL'
  | 'SOLANA_RPC_URL'
  | 'XRPL_RPC_URL';

/** The endpoints CHAIN_ENDPOINTS=public fills: every one the operator left unset (bitcoin's only on mainnet). */
function withPublicEndpoints(config: Variables): Partial<Pick<Variables, ChainEndpointVariable>> {
  if (config.CHAIN_ENDPOINTS !== 'public') return {};
  const filled: Partial<Record<ChainEndpointVariable, string>> = {};
  for (const endpoint of PUBLIC_ENDPOINTS) {
    const variable = endpoint.variable as ChainEndpointVariable;
    if (config[variable] !== undefined) continue;
    if (variable === 'BITCOIN_ESPLORA_URL' && (config.BITCOIN_RPC_URL || config.BITCOIN_NETWORK !== 'mainnet'))
      continue;
    filled[variable] = endpoint.url;
  }
  return filled;
}

export const screeningConfigSlice = configSlice({
  variables,
  problems: (config, nodeEnv) => [
    ...(config.EVM_HISTORY_SOURCE === 'etherscan' && !config.ETHERSCAN_API_KEY
      ? ['ETHERSCAN_API_KEY: required when EVM_HISTORY_SOURCE=etherscan']
      : []),
    ...(config.CHAIN_ENDPOINTS === 'public' && nodeEnv === 'production'
      ? ['CHAIN_ENDPOINTS: public shared endpoints are for trying the service, not production: set each endpoint']
      : []),
  ],
  derive: (config) => withPublicEndpoints(config),
});

export type ScreeningConfig = SliceConfig<typeof screeningConfigSlice>;
