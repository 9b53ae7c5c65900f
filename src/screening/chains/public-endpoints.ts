/**
 * Free public endpoints, one per chain where one exists, for someone trying the service on a machine with internet
 * (CHAIN_ENDPOINTS=public): never for production. They are shared, rate-limited per address and keep no promise of
 * uptime or history depth; an exposure crawl on them is slower and is cut short sooner than on a deployment's own
 * nodes. The limits are what each provider published when this list was written (docs/configuration.md). Bitcoin
 * Cash and Dogecoin have none: no free public API answers Esplora's routes for them (their explorers speak their own
 * formats), so without an endpoint of the operator's they stay on the reference data.
 */
export interface PublicEndpoint {
  /** The screening variable it fills when unset. */
  readonly variable: string;
  readonly url: string;
  readonly provider: string;
  /** The provider's published limits for anonymous use. */
  readonly limits: string;
}

export const PUBLIC_ENDPOINTS: readonly PublicEndpoint[] = [
  {
    variable: 'ETHEREUM_RPC_URL',
    url: 'https://ethereum-rpc.publicnode.com',
    provider: 'PublicNode (Allnodes)',
    limits: 'fair use, about 100 requests/s per address; eth_getLogs over at most 50,000 blocks',
  },
  {
    variable: 'BSC_RPC_URL',
    url: 'https://bsc-rpc.publicnode.com',
    provider: 'PublicNode (Allnodes)',
    limits: 'fair use, about 100 requests/s per address; eth_getLogs over at most 50,000 blocks',
  },
  {
    variable: 'ARBITRUM_RPC_URL',
    url: 'https://arb1.arbitrum.io/rpc',
    provider: 'Offchain Labs',
    limits: 'rate-limited per address, no figure published; not for production (Arbitrum docs)',
  },
  {
    variable: 'BASE_RPC_URL',
    url: 'https://mainnet.base.org',
    provider: 'Coinbase',
    limits: 'rate-limited per address, no figure published; not for production (Base docs)',
  },
  {
    variable: 'OPTIMISM_RPC_URL',
    url: 'https://mainnet.optimism.io',
    provider: 'OP Labs',
    limits: 'rate-limited per address, no figure published; not for production (Optimism docs)',
  },
  {
    variable: 'POLYGON_RPC_URL',
    url: 'https://polygon-rpc.com',
    provider: 'Polygon Labs',
    limits: 'rate-limited per address, no figure published',
  },
  {
    variable: 'AVALANCHE_RPC_URL',
    url: 'https://api.avax.network/ext/bc/C/rpc',
    provider: 'Ava Labs',
    limits: 'rate-limited per address, no figure published; not for production (Avalanche docs)',
  },
  {
    variable: 'LINEA_RPC_URL',
    url: 'https://rpc.linea.build',
    provider: 'Consensys',
    limits: 'rate-limited per address, no figure published',
  },
  {
    variable: 'BITCOIN_ESPLORA_URL',
    url: 'https://blockstream.info/api',
    provider: 'Blockstream Esplora',
    limits: 'rate-limited per address (HTTP 429 past it); mainnet only',
  },
  {
    variable: 'LITECOIN_ESPLORA_URL',
    url: 'https://litecoinspace.org/api',
    provider: 'Litecoin Space (a mempool.space fork: Esplora’s REST routes for Litecoin)',
    limits: 'rate-limited per address, no figure published; mainnet only',
  },
  {
    variable: 'TRON_API_URL',
    url: 'https://api.trongrid.io',
    provider: 'TronGrid',
    limits: 'without TRON_API_KEY heavily throttled (a free key: 100,000 requests/day, 15 requests/s)',
  },
  {
    variable: 'SOLANA_RPC_URL',
    url: 'https://api.mainnet-beta.solana.com',
    provider: 'Solana Foundation',
    limits: '100 requests per 10 s per address, 40 per 10 s for one method; not for production (Solana docs)',
  },
  {
    variable: 'XRPL_RPC_URL',
    url: 'https://s2.ripple.com:51234',
    provider: 'Ripple (full-history server)',
    limits: 'rate-limited per address, no figure published',
  },
];
