import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEvmChainClient } from '../../src/screening/chains/evm-client';
import { ChainConfigurationError } from '../../src/screening/chains/chain-client';
import { deployTestToken, mintToken, rpc, sendNative, sendToken, startAnvil, type AnvilNode } from '../helpers/anvil';
import { pollUntilDone, screenJob, startTestStack, type TestStack } from '../helpers/test-stack';

const SANCTIONED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c'; // OFAC SDN (NPWMD) in data/risk/sanctions_ofac.csv
const ETH = 10n ** 18n;
const fresh = () => `0x${randomBytes(20).toString('hex')}`;
const noDeadline = () => new AbortController().signal;

interface RpcProxy {
  url: string;
  /** Every method the client sent, in order. */
  methods: string[];
  /** eth_getLogs / trace_filter ranges refused as too large. */
  refused: number;
  /** Block ranges of the eth_getLogs calls answered (not refused), in order, as [from, to, topics]. */
  logRanges: [number, number, (string | null)[]][];
  close(): Promise<void>;
}

interface ProxyOptions {
  hide?: RegExp;
  maxRange?: number;
  /** Refuse eth_getLogs ranges wider than `maxRange` only when a topic is this address's (a hub's logs overflow). */
  hub?: string;
  /** Answer eth_getLogs ranges wider than this many blocks with a body padded past 64 KiB. */
  padAbove?: number;
}

const topicOf = (address: string) => `0x${address.slice(2).padStart(64, '0')}`;

/**
 * A plain node in front of anvil: can hide methods (anvil answers ots_* and trace_filter, most hosted
 * endpoints answer neither) and refuse eth_getLogs/trace_filter ranges wider than `maxRange` blocks
 * the way Infura does (-32005 "query returned more than 10000 results"), for every address or one hub's.
 */
async function startRpcProxy(target: string, o: ProxyOptions = {}): Promise<RpcProxy> {
  const proxy: RpcProxy = { url: '', methods: [], refused: 0, logRanges: [], close: async () => undefined };
  const server = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const call = JSON.parse(body) as {
      id: number;
      method: string;
      params?: { fromBlock?: string; toBlock?: string; topics?: (string | null)[] }[];
    };
    proxy.methods.push(call.method);
    const reply = (payload: unknown, padding = '') =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payload) + padding);
    if (o.hide?.test(call.method))
      return reply({
        jsonrpc: '2.0',
        id: call.id,
        error: { code: -32601, message: `the method ${call.method} does not exist/is not available` },
      });
    const range = call.params?.[0];
    const width = range?.fromBlock && range.toBlock ? Number(range.toBlock) - Number(range.fromBlock) + 1 : 0;
    const hubCall = !o.hub || (call.method === 'eth_getLogs' && Boolean(range?.topics?.includes(topicOf(o.hub))));
    if (o.maxRange && hubCall && (call.method === 'eth_getLogs' || call.method === 'trace_filter') && width) {
      if (width > o.maxRange) {
        proxy.refused += 1;
        return reply({
          jsonrpc: '2.0',
          id: call.id,
          error: { code: -32005, message: 'query returned more than 10000 results' },
        });
      }
    }
    const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    if (call.method === 'eth_getLogs' && range)
      proxy.logRanges.push([Number(range.fromBlock), Number(range.toBlock), range.topics ?? []]);
    // Whitespace after the JSON: a valid answer, just a long one.
    reply(await upstream.json(), o.padAbove !== undefined && width > o.padAbove ? ' '.repeat(64 * 1024) : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return proxy;
}

/**
 * sanctioned → A (native coin), A → B (token), B → C (token): each hop needs a different part of
 * the plain-node reader.
 */
async function scriptGraph(rpcUrl: string) {
  const [A, B, C] = [fresh(), fresh(), fresh()];
  const token = await deployTestToken(rpcUrl);
  await sendNative({ rpcUrl, from: SANCTIONED, to: A, valueWei: 10n * ETH });
  await mintToken({ rpcUrl, token, to: A, amount: 9_000_000_000n });
  await sendToken({ rpcUrl, token, from: A, to: B, amount: 5_000_000_000n });
  await sendToken({ rpcUrl, token, from: B, to: C, amount: 2_000_000_000n });
  return { A, B, C, token };
}

describe.each([
  ['ethereum', 1, 'ETH', 'ETHEREUM_RPC_URL'],
  ['binance-smart-chain', 56, 'BNB', 'BSC_RPC_URL'],
] as const)(
  'EVM crawl on %s from a plain node (anvil, chain id %i, EVM_HISTORY_SOURCE=logs)',
  (chain, chainId, symbol, urlVariable) => {
    let node: AnvilNode;
    let proxy: RpcProxy;
    let stack: TestStack;
    let graph: Awaited<ReturnType<typeof scriptGraph>>;

    beforeAll(async () => {
      node = await startAnvil({ chainId });
      graph = await scriptGraph(node.rpcUrl);
      proxy = await startRpcProxy(node.rpcUrl);
      // anvil answers ots_*, so `auto` would pick Otterscan: the setting forces the plain-node reader.
      stack = await startTestStack({ env: { [urlVariable]: proxy.url, EVM_HISTORY_SOURCE: 'logs' } });
    }, 60_000);
    afterAll(async () => {
      await stack.stop();
      await proxy.close();
      await node.stop();
    });

    test(
      'when C received tokens from B, B from A and A the native coin from a sanctioned address, then ' +
        'KYA of C finds the sanction at hop 3 from logs and traces',
      async () => {
        const { A, B, C } = graph;
        proxy.methods.length = 0;

        const { polled, full } = await screenJob(stack, { chain, address: C });

        expect(polled.status).toBe('completed');
        expect(full.hits.find((h: any) => h.address === SANCTIONED)).toMatchObject({
          hop: 3,
          path: [C, B, A, SANCTIONED],
          direction: 'in',
          category: 'sanctions',
        });
        const head = Number(await rpc<string>(node.rpcUrl, 'eth_blockNumber', []));
        expect(full.crawl).toMatchObject({ ran: true, complete: true, source: { name: 'logs', blindTo: [] } });
        // The span this job's reads covered, not the configured one: the chain is younger than 50,000 blocks.
        expect(full.crawl.source.limitation).toBe(
          `ERC-20 Transfer logs and trace_filter native transfers over blocks 0 to ${head} only ` +
            `(${head + 1} blocks read, back to genesis)`,
        );
        expect(full.graph.edges).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ from: B, to: C, asset: 'USDT', amount: '2000 USDT', hop: 1 }),
            expect.objectContaining({ from: A, to: B, asset: 'USDT', amount: '5000 USDT', hop: 2 }),
            expect.objectContaining({ from: SANCTIONED, to: A, asset: symbol, amount: `10 ${symbol}`, hop: 3 }),
          ]),
        );
        expect(proxy.methods).not.toContain('ots_searchTransactionsBefore');
        // from/to topics for C, B and A: one window reaches genesis (6 reads). The cluster expansion (deposit-address
        // heuristic) reads some of C, B, A and the sanctioned address again, from/to each, within its budget: how
        // many depends on what the chain cache already holds, at most 4 addresses.
        const logReads = proxy.methods.filter((m) => m === 'eth_getLogs').length;
        expect(logReads % 2).toBe(0);
        expect(logReads).toBeGreaterThanOrEqual(6);
        expect(logReads).toBeLessThanOrEqual(6 + 8);
        expect(full.performance.cluster_calls).toBeGreaterThanOrEqual(1);
      },
    );
  },
);

describe('EVM plain-node reader against anvil behind a proxy', () => {
  let node: AnvilNode;
  let graph: Awaited<ReturnType<typeof scriptGraph>>;
  const proxies: RpcProxy[] = [];
  const proxied = async (o: Parameters<typeof startRpcProxy>[1]) => {
    const p = await startRpcProxy(node.rpcUrl, o);
    proxies.push(p);
    return p;
  };

  beforeAll(async () => {
    node = await startAnvil({ chainId: 1 });
    graph = await scriptGraph(node.rpcUrl);
  }, 60_000);
  afterAll(async () => {
    for (const p of proxies) await p.close();
    await node.stop();
  });

  test(
    'when the node has neither ots_* nor trace_filter, then auto reads token logs only and says native ' +
      'transfers were not followed',
    async () => {
      const proxy = await proxied({ hide: /^(ots_|trace_)/ });
      const client = createEvmChainClient({ chain: 'ethereum', rpcUrl: proxy.url });

      const page = await client.getAddressTransfers!(graph.A, { limit: 50 }, noDeadline());
      const source = await client.transferSource!(noDeadline());
      const facts = await client.getAddressFacts(graph.A, { tokens: [], transferLimit: 10 }, noDeadline());

      expect(page.transfers).toEqual([
        expect.objectContaining({ direction: 'out', counterparty: graph.B, amount: 5_000_000_000n }),
      ]);
      expect(page.truncated).toBe(false);
      expect(source).toEqual({
        name: 'logs',
        limitation:
          'ERC-20 Transfer logs over the newest 50000 blocks only; native ETH transfers are not logs and this node ' +
          'has no trace_filter, so they were not followed',
        blindTo: ['native', 'internal'],
      });
      // A window of logs cannot tell when the address first appeared.
      expect(facts.transferSummary).toBeNull();
      expect(proxy.methods.filter((m) => m === 'ots_getApiLevel')).toHaveLength(1);
    },
  );

  test(
    'when the node refuses eth_getLogs ranges over 4 blocks, then a read splits its window until the node ' +
      'answers, and the next read starts from the configured window again',
    async () => {
      const proxy = await proxied({ hide: /^ots_/, maxRange: 4 });
      const client = createEvmChainClient({
        chain: 'ethereum',
        rpcUrl: proxy.url,
        logWindows: { windowBlocks: 64, maxWindows: 2 },
      });

      const first = await client.getAddressTransfers!(graph.B, { limit: 50 }, noDeadline());
      const answeredFirst = proxy.logRanges.length;
      const second = await client.getAddressTransfers!(graph.C, { limit: 50 }, noDeadline());

      expect(first.transfers.map((t) => [t.direction, t.counterparty, t.amount])).toEqual([
        ['out', graph.C, 2_000_000_000n],
        ['in', graph.A, 5_000_000_000n],
      ]);
      expect(second.transfers.map((t) => [t.direction, t.counterparty])).toEqual([['in', graph.B]]);
      // Every answered range fits the node's limit, and the second read was refused again before it fit: what
      // one read learnt did not carry over.
      expect(proxy.logRanges.every(([from, to]) => to - from + 1 <= 4)).toBe(true);
      expect(proxy.logRanges.length).toBeGreaterThan(answeredFirst);
      expect(proxy.methods.filter((m) => m === 'eth_getLogs').length - proxy.logRanges.length).toBe(proxy.refused);
    },
  );

  test(
    'when an eth_getLogs answer is larger than the response cap, then the window is split like one the node ' +
      'refuses and the read completes from answers under the cap',
    async () => {
      const proxy = await proxied({ hide: /^ots_/, padAbove: 4 });
      const client = createEvmChainClient({
        chain: 'ethereum',
        rpcUrl: proxy.url,
        maxResponseBytes: 16 * 1024,
        logWindows: { windowBlocks: 64, maxWindows: 2 },
      });

      const page = await client.getAddressTransfers!(graph.B, { limit: 50 }, noDeadline());

      expect(page.transfers.map((t) => [t.direction, t.counterparty, t.amount])).toEqual([
        ['out', graph.C, 2_000_000_000n],
        ['in', graph.A, 5_000_000_000n],
      ]);
      // The padded (64 KiB) answers were cut at the cap and their ranges read again in halves.
      const last = proxy.logRanges.slice(-2);
      expect(last.every(([from, to]) => to - from + 1 <= 4)).toBe(true);
    },
  );

  test(
    'when the node answers with a redirect, then it is not followed and the call fails as a configuration ' +
      'fault naming the node',
    async () => {
      let followed = 0;
      const target = http.createServer((_req, res) => {
        followed += 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":"0x1"}');
      });
      await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
      const moved = http.createServer((_req, res) => {
        res.writeHead(307, { location: `http://127.0.0.1:${(target.address() as AddressInfo).port}/` }).end();
      });
      await new Promise<void>((resolve) => moved.listen(0, '127.0.0.1', resolve));
      try {
        const client = createEvmChainClient({
          chain: 'ethereum',
          rpcUrl: `http://127.0.0.1:${(moved.address() as AddressInfo).port}/v3/moved-key-0123456789`,
        });
        const err = await client.getAddressFacts(graph.A, { tokens: [], transferLimit: 1 }, noDeadline()).then(
          () => undefined,
          (e: unknown) => e as Error,
        );

        expect(err).toBeInstanceOf(ChainConfigurationError);
        expect(err?.message).toMatch(/^ethereum node failed on eth_\w+: redirected \(HTTP 307\), not followed/);
        expect(err?.message).not.toContain('moved-key-0123456789');
        expect(followed).toBe(0);
      } finally {
        await new Promise<void>((resolve) => moved.close(() => resolve()));
        await new Promise<void>((resolve) => target.close(() => resolve()));
      }
    },
  );

  test(
    'when a job reads less than the whole chain, then its coverage names the blocks it read, and a client ' +
      'outside a job names the span it would search',
    async () => {
      await rpc(node.rpcUrl, 'anvil_mine', ['0x14']);
      const head = Number(await rpc<string>(node.rpcUrl, 'eth_blockNumber', []));
      const proxy = await proxied({ hide: /^(ots_|trace_)/ });
      const client = createEvmChainClient({
        chain: 'ethereum',
        rpcUrl: proxy.url,
        logWindows: { windowBlocks: 4, maxWindows: 2 },
      });
      const job = client.forAnalysis!();

      await job.getAddressTransfers!(graph.C, { limit: 50 }, noDeadline());
      const read = await job.transferSource!(noDeadline());
      const planned = await client.transferSource!(noDeadline());

      expect(read.limitation).toBe(
        `ERC-20 Transfer logs over blocks ${head - 7} to ${head} only (8 blocks read); native ETH transfers are ` +
          'not logs and this node has no trace_filter, so they were not followed',
      );
      expect(planned.limitation).toMatch(/^ERC-20 Transfer logs over the newest 8 blocks only;/);
      expect(proxy.logRanges.map(([from, to]) => [from, to])).toEqual([
        [head - 3, head],
        [head - 3, head],
        [head - 7, head - 4],
        [head - 7, head - 4],
      ]);
    },
  );

  test(
    'when the node runs another chain than the one configured, then a job is refused with the ' +
      'reason and nothing is charged',
    async () => {
      const bsc = await startAnvil({ chainId: 56 });
      const stack = await startTestStack({ env: { ETHEREUM_RPC_URL: bsc.rpcUrl } });
      try {
        const user = await stack.createUser({ credits: 5 });
        const submit = await stack.http('POST', '/api/v1/kyt/job', {
          key: user.key,
          body: { chain: 'ethereum', address: graph.C },
        });
        const polled = await pollUntilDone(stack, user.key, submit.body.data.request_id);

        expect(polled.data.status).toBe('failed');
        expect(polled.data.error.message).toMatch(
          /ETHEREUM_RPC_URL points at a node for chain id 56 \(binance-smart-chain\), not 1 \(ethereum\)/,
        );
        expect(await stack.stores.credits.balance(user.id)).toMatchObject({ balance: 5, reserved: 0 });
      } finally {
        await stack.stop();
        await bsc.stop();
      }
    },
  );
});

describe('EVM plain-node windows are per read: a hub in one job does not narrow the next job', () => {
  let node: AnvilNode;
  let proxy: RpcProxy;
  let stack: TestStack;
  let graph: Awaited<ReturnType<typeof scriptGraph>>;
  const hub = fresh();

  beforeAll(async () => {
    node = await startAnvil({ chainId: 1 });
    graph = await scriptGraph(node.rpcUrl);
    await mintToken({ rpcUrl: node.rpcUrl, token: graph.token, to: hub, amount: 1_000n });
    // Everything above lies more than a few blocks below the head.
    await rpc(node.rpcUrl, 'anvil_mine', ['0x10']);
    // The node refuses any eth_getLogs range over one block that names the hub, as a provider does for an
    // address whose logs overflow its result cap.
    proxy = await startRpcProxy(node.rpcUrl, { hide: /^ots_/, maxRange: 1, hub });
    stack = await startTestStack({
      env: {
        ETHEREUM_RPC_URL: proxy.url,
        EVM_HISTORY_SOURCE: 'logs',
        EVM_LOGS_WINDOW_BLOCKS: '64',
        EVM_LOGS_MAX_WINDOWS: '2',
      },
    });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
    await proxy?.close();
    await node?.stop();
  });

  test(
    'when job 1 screens the hub (its windows split to single blocks), then job 2 reads C in full windows, ' +
      'finds the sanction at hop 3, and its coverage names the blocks it read',
    async () => {
      const first = await screenJob(stack, { chain: 'ethereum', address: hub });
      expect(first.polled.status).toBe('completed');
      expect(proxy.refused).toBeGreaterThan(0);
      const refusedInJob1 = proxy.refused;
      const answeredInJob1 = proxy.logRanges.length;
      const head = Number(await rpc<string>(node.rpcUrl, 'eth_blockNumber', []));

      const second = await screenJob(stack, { chain: 'ethereum', address: graph.C });

      expect(second.polled.status).toBe('completed');
      expect(second.full.hits.find((h: any) => h.address === SANCTIONED)).toMatchObject({
        hop: 3,
        path: [graph.C, graph.B, graph.A, SANCTIONED],
      });
      // Job 2's first read of C spans the configured window (down to genesis), and nothing was refused.
      const cTopic = topicOf(graph.C);
      const firstForC = proxy.logRanges.slice(answeredInJob1).find(([, , topics]) => topics.includes(cTopic));
      expect(firstForC?.slice(0, 2)).toEqual([0, head]);
      expect(proxy.refused).toBe(refusedInJob1);
      expect(second.full.crawl.source.limitation).toBe(
        `ERC-20 Transfer logs and trace_filter native transfers over blocks 0 to ${head} only ` +
          `(${head + 1} blocks read, back to genesis)`,
      );
      // Job 1's answer says what it read too, single blocks and all.
      expect(first.full.crawl.source.limitation).toBe(second.full.crawl.source.limitation);
    },
  );
});
