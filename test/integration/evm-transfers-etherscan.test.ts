import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ChainConfigurationError } from '../../src/screening/chains/chain-client';
import { createEvmChainClient, type EvmChain } from '../../src/screening/chains/evm-client';
import { crawlLimitsFor } from '../../src/screening/engine/crawl-limits';
import { createTokenBucket } from '../../src/platform/http-client/token-bucket';
import { startReplayServer, type Cassette, type ReplayServer } from '../helpers/replay-server';
import { screenJob, startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * EVM address transfers through the Etherscan v2 account API, for a node without ots_* (the common case: a
 * plain JSON-RPC endpoint plus an Etherscan key). Both the node and Etherscan are the strict replay
 * server; Etherscan answers with the documented-shape pages in test/fixtures/chains/etherscan (how they
 * were made: SOURCES.md there). Any request nobody recorded fails the test.
 */
const fixture = (name: string) =>
  JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', 'chains', 'etherscan', name), 'utf8'));

const SANCTIONED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c'; // OFAC SDN (NPWMD) in data/risk
const A = '0xaaaa00000000000000000000000000000000000a';
const B = '0xbbbb00000000000000000000000000000000000b';
const C = '0xcccc00000000000000000000000000000000000c';
const KEY = 'TESTKEY0123456789';
const PAGE = crawlLimitsFor('KYA').pageSize;

const etherscan = (
  chainid: number,
  action: string,
  address: string,
  body: unknown,
  extra: Partial<Cassette> = {},
): Cassette => ({
  request: {
    method: 'GET',
    path: '/etherscan/v2/api',
    query: {
      chainid: String(chainid),
      module: 'account',
      action,
      address,
      startblock: '0',
      endblock: 'latest',
      page: '1',
      offset: String(PAGE),
      sort: 'desc',
      apikey: KEY,
    },
  },
  response: { body },
  ...extra,
});
/**
 * The sanctioned address's lists, empty. The crawl never expands it (a sanction stops it), but the wallet-cluster
 * growth reads the addresses the crawl met while its call budget lasts, the sanctioned one too, unless another test
 * file has already read it into the shared database: served here so the outcome does not hang on which files ran first.
 */
const nothingFor = (address: string): Cassette[] =>
  ['txlist', 'txlistinternal', 'tokentx'].map((action) =>
    etherscan(1, action, address, { status: '0', message: 'No transactions found', result: [] }),
  );
const pagesOf = (name: string, address: string): Cassette[] =>
  ['txlist', 'txlistinternal', 'tokentx'].map((action) =>
    etherscan(1, action, address, fixture(`${action}_${name}.json`)),
  );

const rpc = (
  method: string,
  params: unknown[],
  answer: { result?: unknown; error?: unknown },
  prefix = '/eth',
): Cassette => ({
  request: { method: 'POST', path: prefix, rpc: { method, params } },
  response: { body: { jsonrpc: '2.0', ...answer } },
});
/** A plain node: it knows its chain and the address's state, and has no ots_ namespace. */
const plainNode = (chainIdHex: string, address: string, prefix = '/eth'): Cassette[] => [
  rpc('eth_chainId', [], { result: chainIdHex }, prefix),
  rpc(
    'ots_getApiLevel',
    [],
    { error: { code: -32601, message: 'the method ots_getApiLevel does not exist/is not available' } },
    prefix,
  ),
  rpc('eth_getCode', [address, 'latest'], { result: '0x' }, prefix),
  rpc('eth_getBalance', [address, 'latest'], { result: '0x1bc16d674ec80000' }, prefix),
  rpc('eth_getTransactionCount', [address, 'latest'], { result: '0x0' }, prefix),
];
const etherscanServed = (server: ReplayServer) => server.served.filter((key) => key.includes('/etherscan/'));

describe('EVM crawl through the Etherscan v2 account API (plain node, no ots_*)', () => {
  let server: ReplayServer;
  let stack: TestStack;

  async function start(cassettes: Cassette[]) {
    server = await startReplayServer(cassettes);
    stack = await startTestStack({
      env: {
        ETHEREUM_RPC_URL: `${server.url}/eth`,
        ETHERSCAN_API_KEY: KEY,
        ETHERSCAN_API_URL: `${server.url}/etherscan/v2/api`,
      },
    });
  }
  afterEach(async () => {
    expect(server.misses).toEqual([]);
    await stack.stop();
    await server.close();
  });

  test(
    'when C was paid by B (internal call), B by A (USDT) and A by a sanctioned address (ETH), then ' +
      'KYA of C finds the sanction at hop 3 through Etherscan',
    async () => {
      await start([
        ...plainNode('0x1', C),
        ...pagesOf('C', C),
        ...pagesOf('B', B),
        ...pagesOf('A', A),
        ...nothingFor(SANCTIONED),
      ]);

      const { polled, full } = await screenJob(stack, { chain: 'ethereum', address: C });

      expect(polled.status).toBe('completed');
      expect(full.hits.find((h: any) => h.address === SANCTIONED)).toMatchObject({
        hop: 3,
        path: [C, B, A, SANCTIONED],
        direction: 'in',
        category: 'sanctions',
      });
      expect(full.crawl).toMatchObject({
        ran: true,
        complete: true,
        source: { name: 'etherscan', limitation: null, blindTo: [] },
      });
      expect(full.graph.edges).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ from: B, to: C, asset: 'ETH', amount: '2 ETH', hop: 1 }),
          expect.objectContaining({ from: A, to: B, asset: 'USDT', amount: '5000 USDT', hop: 2 }),
          expect.objectContaining({ from: SANCTIONED, to: A, asset: 'ETH', amount: '10 ETH', hop: 3 }),
        ]),
      );
      // The reverted payment to B and the zero-value look-alike transfer to C are not edges.
      expect(full.graph.nodes.map((n: any) => n.address)).not.toEqual(
        expect.arrayContaining(['0x00000000000000000000000000000000000f4e11']),
      );
      expect(full.graph.nodes.map((n: any) => n.address)).not.toEqual(
        expect.arrayContaining(['0xcccc0000000000000000000000000000000c0c0c']),
      );
      // Three lists per address the crawl expanded (C, B, A), C's read once for its facts and its crawl; the
      // sanctioned node is not expanded: nothing beyond it in the graph (its own lists are the clusters' read).
      expect(etherscanServed(server).filter((key) => !key.includes(SANCTIONED))).toHaveLength(9);
      expect(full.graph.edges.filter((e: any) => e.hop > 3)).toEqual([]);
      expect(full.graph.edges.filter((e: any) => e.to === SANCTIONED)).toEqual([]);
    },
  );

  test(
    'when Etherscan refuses the key (Invalid API Key), then the job fails at once, ' +
      'names ETHERSCAN_API_KEY and never shows the key',
    async () => {
      await start([
        ...plainNode('0x1', C),
        ...['txlist', 'txlistinternal', 'tokentx'].map((action) =>
          etherscan(1, action, C, fixture('error_invalid_key.json')),
        ),
      ]);

      const { polled } = await screenJob(stack, { chain: 'ethereum', address: C });

      expect(polled.status).toBe('failed');
      expect(polled.error.message).toMatch(/Etherscan refused ETHERSCAN_API_KEY: Invalid API Key/);
      expect(JSON.stringify(polled)).not.toContain(KEY);
      // Not retried: one request per list, one analysis attempt.
      expect(etherscanServed(server)).toHaveLength(3);
    },
  );
});

describe('Etherscan transfers client (replayed Etherscan and node)', () => {
  let server: ReplayServer | undefined;
  afterEach(async () => {
    expect(server?.misses ?? []).toEqual([]);
    await server?.close();
    server = undefined;
  });
  const client = (chain: EvmChain, url: string, prefix = '/eth') =>
    createEvmChainClient({
      chain,
      rpcUrl: `${url}${prefix}`,
      transferSourceMode: 'etherscan',
      etherscan: {
        apiUrl: `${url}/etherscan/v2/api`,
        apiKey: KEY,
        bucket: createTokenBucket(50),
        requestTimeoutMs: 2_000,
      },
    });

  test(
    'when Etherscan answers "Max rate limit reached" once, then the list is asked again after a ' +
      'pause and the page is complete',
    async () => {
      const tokentx = etherscan(1, 'tokentx', B, fixture('tokentx_B.json'));
      server = await startReplayServer([
        rpc('eth_chainId', [], { result: '0x1' }),
        etherscan(1, 'txlist', B, fixture('txlist_B.json')),
        etherscan(1, 'txlistinternal', B, fixture('txlistinternal_B.json')),
        { ...tokentx, response: { body: fixture('error_rate_limit.json') }, times: 1 },
        tokentx,
      ]);
      const started = Date.now();

      const page = await client('ethereum', server.url).getAddressTransfers!(
        B,
        { limit: PAGE },
        AbortSignal.timeout(10_000),
      );

      expect(
        page.transfers.map((t) => [
          t.direction,
          t.counterparty,
          t.asset.kind === 'native' ? 'ETH' : t.asset.symbol,
          t.amount,
        ]),
      ).toEqual([
        ['out', C, 'ETH', 2n * 10n ** 18n],
        ['in', A, 'USDT', 5_000_000_000n],
      ]);
      const tokentxAsked = etherscanServed(server).filter((key) => key.includes('action=tokentx'));
      expect(tokentxAsked).toHaveLength(2);
      // Etherscan's limit is per second: the retry waits at least half of its 1 s backoff.
      expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    },
  );

  test(
    "when the key's plan does not cover BNB Smart Chain, then a ChainConfigurationError says so " +
      'instead of no transfers',
    async () => {
      server = await startReplayServer([
        rpc('eth_chainId', [], { result: '0x38' }, '/bsc'),
        ...['txlist', 'txlistinternal', 'tokentx'].map((action) =>
          etherscan(56, action, C, fixture('error_chain_not_in_plan.json')),
        ),
      ]);

      const error = await client('binance-smart-chain', server.url, '/bsc').getAddressTransfers!(
        C,
        { limit: PAGE },
        AbortSignal.timeout(10_000),
      ).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(ChainConfigurationError);
      expect((error as Error).message).toMatch(
        new RegExp(
          /etherscan \(chainid 56\).*does not serve this chain on the key's plan: /.source +
            /Free API access is not supported for this chain/.source,
        ),
      );
    },
  );

  test(
    'when ETHEREUM_RPC_URL answers chain id 56, ' + 'then every call is refused before any transfer is read',
    async () => {
      server = await startReplayServer([rpc('eth_chainId', [], { result: '0x38' })]);
      const wrong = client('ethereum', server.url);

      const transfers = await wrong.getAddressTransfers!(C, { limit: PAGE }, AbortSignal.timeout(5_000)).catch(
        (e: unknown) => e,
      );
      const facts = await wrong
        .getAddressFacts(C, { tokens: [], transferLimit: 5 }, AbortSignal.timeout(5_000))
        .catch((e: unknown) => e);

      for (const error of [transfers, facts]) {
        expect(error).toBeInstanceOf(ChainConfigurationError);
        expect((error as Error).message).toBe(
          'ETHEREUM_RPC_URL points at a node for chain id 56 (binance-smart-chain), not 1 (ethereum): ' +
            "refusing to screen ethereum on another chain's data",
        );
      }
      // Asked once: the mismatch is remembered.
      expect(server.served).toEqual(['POST /eth rpc:eth_chainId []']);
    },
  );
});
