import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEvmChainClient } from '../../src/screening/chains/evm-client';
import { deployTestToken, mintToken, sendNative, sendToken, startAnvil, type AnvilNode } from '../helpers/anvil';
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
  close(): Promise<void>;
}

/**
 * A plain node in front of anvil: can hide methods (anvil answers ots_* and trace_filter, most hosted
 * endpoints answer neither) and refuse eth_getLogs/trace_filter ranges wider than `maxRange` blocks
 * the way Infura does (-32005 "query returned more than 10000 results").
 */
async function startRpcProxy(target: string, o: { hide?: RegExp; maxRange?: number } = {}): Promise<RpcProxy> {
  const proxy: RpcProxy = { url: '', methods: [], refused: 0, close: async () => undefined };
  const server = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const call = JSON.parse(body) as {
      id: number;
      method: string;
      params?: { fromBlock?: string; toBlock?: string }[];
    };
    proxy.methods.push(call.method);
    const reply = (payload: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    if (o.hide?.test(call.method))
      return reply({
        jsonrpc: '2.0',
        id: call.id,
        error: { code: -32601, message: `the method ${call.method} does not exist/is not available` },
      });
    const range = call.params?.[0];
    if (
      o.maxRange &&
      (call.method === 'eth_getLogs' || call.method === 'trace_filter') &&
      range?.fromBlock &&
      range.toBlock
    ) {
      if (Number(range.toBlock) - Number(range.fromBlock) + 1 > o.maxRange) {
        proxy.refused += 1;
        return reply({
          jsonrpc: '2.0',
          id: call.id,
          error: { code: -32005, message: 'query returned more than 10000 results' },
        });
      }
    }
    const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    reply(await upstream.json());
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
        expect(full.crawl).toMatchObject({ ran: true, complete: true, source: { name: 'logs', blindTo: [] } });
        expect(full.crawl.source.limitation).toMatch(
          /ERC-20 Transfer logs and trace_filter native transfers over the newest 50000 blocks only/,
        );
        expect(full.graph.edges).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ from: B, to: C, asset: 'USDT', amount: '2000 USDT', hop: 1 }),
            expect.objectContaining({ from: A, to: B, asset: 'USDT', amount: '5000 USDT', hop: 2 }),
            expect.objectContaining({ from: SANCTIONED, to: A, asset: symbol, amount: `10 ${symbol}`, hop: 3 }),
          ]),
        );
        expect(proxy.methods).not.toContain('ots_searchTransactionsBefore');
        // from/to topics for C, B and A: one window reaches genesis
        expect(proxy.methods.filter((m) => m === 'eth_getLogs')).toHaveLength(6);
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
      const source = await client.historySource!(noDeadline());
      const facts = await client.getAddressFacts(graph.A, { tokens: [], historyLimit: 10 }, noDeadline());

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
      expect(facts.history).toBeNull();
      expect(proxy.methods.filter((m) => m === 'ots_getApiLevel')).toHaveLength(1);
    },
  );

  test(
    'when the node refuses eth_getLogs ranges over 4 blocks, then the window is split until it answers ' +
      'and later reads start small',
    async () => {
      const proxy = await proxied({ hide: /^ots_/, maxRange: 4 });
      const client = createEvmChainClient({
        chain: 'ethereum',
        rpcUrl: proxy.url,
        logWindows: { windowBlocks: 64, maxWindows: 2 },
      });

      const first = await client.getAddressTransfers!(graph.B, { limit: 50 }, noDeadline());
      const refusedFirst = proxy.refused;
      const second = await client.getAddressTransfers!(graph.C, { limit: 50 }, noDeadline());

      expect(first.transfers.map((t) => [t.direction, t.counterparty, t.amount])).toEqual([
        ['out', graph.C, 2_000_000_000n],
        ['in', graph.A, 5_000_000_000n],
      ]);
      expect(second.transfers.map((t) => [t.direction, t.counterparty])).toEqual([['in', graph.B]]);
      expect(refusedFirst).toBeGreaterThan(0);
      // The second read used the size that worked, so the node refused nothing more.
      expect(proxy.refused).toBe(refusedFirst);
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
