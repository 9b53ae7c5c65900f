import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { inspect } from 'node:util';
import { createPublicClient, erc20Abi, http as viemHttp, type Address } from 'viem';
import {
  ChainUnavailableError,
  InvalidAddressError,
  type ChainClient,
} from '../../../src/screening/chains/chain-client';
import { createEvmChainClient } from '../../../src/screening/chains/evm-client';
import { raceSignal } from '../../../src/platform/abort/deadline';
import {
  assemble,
  deployTestToken,
  freePort,
  mintToken,
  rpc,
  sendNative,
  sendToken,
  sendTransaction,
  startAnvil,
  TRANSFER_TOPIC,
  type AnvilNode,
} from '../../helpers/anvil';

const ETH = 10n ** 18n;
const randomAddress = () => `0x${randomBytes(20).toString('hex')}`;
const randomHash = () => `0x${randomBytes(32).toString('hex')}`;
/** A signal that never fires, for calls whose deadline is not under test. */
const noDeadline = () => new AbortController().signal;

async function blockTimestampOf(rpcUrl: string, hash: string): Promise<number> {
  const receipt = await rpc<{ blockNumber: string }>(rpcUrl, 'eth_getTransactionReceipt', [hash]);
  const block = await rpc<{ timestamp: string }>(rpcUrl, 'eth_getBlockByNumber', [receipt.blockNumber, false]);
  return Number(block.timestamp);
}

/**
 * Sits between client and anvil: records methods, can hide the ots namespace or answer every call with a fixed error.
 */
async function startProxy(target: string, behaviour: { hideOts?: boolean; errorMessage?: string } = {}) {
  const methods: string[] = [];
  const server = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const request = JSON.parse(body) as { id: number; method: string };
    methods.push(request.method);
    const reply = (payload: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (behaviour.errorMessage)
      return reply({ jsonrpc: '2.0', id: request.id, error: { code: -32000, message: behaviour.errorMessage } });
    if (behaviour.hideOts && request.method.startsWith('ots_')) {
      return reply({
        jsonrpc: '2.0',
        id: request.id,
        error: { code: -32601, message: `the method ${request.method} does not exist/is not available` },
      });
    }
    const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    reply(await upstream.json());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    methods,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('EVM chain client against anvil (ethereum)', () => {
  let node: AnvilNode;
  let client: ChainClient;
  let token: string;
  const alice = randomAddress();
  const bob = randomAddress();
  const carol = randomAddress();
  let nativeHash: string;
  let tokenHash: string;
  let carolHash: string;
  let _selfTokenHash: string;

  beforeAll(async () => {
    node = await startAnvil({ chainId: 1 });
    client = createEvmChainClient({ chain: 'ethereum', rpcUrl: node.rpcUrl });
    token = await deployTestToken(node.rpcUrl);
    await mintToken({ rpcUrl: node.rpcUrl, token, to: alice, amount: 1_000_000_000n });
    // Distinct block times, so firstSeen and lastSeen can only match the right transactions.
    nativeHash = await sendNative({ rpcUrl: node.rpcUrl, from: alice, to: bob, valueWei: (3n * ETH) / 2n });
    await rpc(node.rpcUrl, 'evm_increaseTime', [60]);
    tokenHash = await sendToken({ rpcUrl: node.rpcUrl, token, from: alice, to: bob, amount: 250_000_000n });
    await rpc(node.rpcUrl, 'evm_increaseTime', [60]);
    carolHash = await sendNative({ rpcUrl: node.rpcUrl, from: carol, to: bob, valueWei: ETH / 10n });
    _selfTokenHash = await sendToken({ rpcUrl: node.rpcUrl, token, from: alice, to: token, amount: 5n });
  });
  afterAll(async () => {
    await node?.stop();
  });

  test('when the hand-assembled token is queried with viem eth_call, then it answers like an ERC-20', async () => {
    const viem = createPublicClient({ transport: viemHttp(node.rpcUrl) });
    const contract = { address: token as Address, abi: erc20Abi } as const;
    await expect(viem.readContract({ ...contract, functionName: 'symbol' })).resolves.toBe('USDT');
    await expect(viem.readContract({ ...contract, functionName: 'decimals' })).resolves.toBe(6);
    await expect(viem.readContract({ ...contract, functionName: 'balanceOf', args: [alice as Address] })).resolves.toBe(
      749_999_995n,
    );
    await expect(viem.readContract({ ...contract, functionName: 'balanceOf', args: [bob as Address] })).resolves.toBe(
      250_000_000n,
    );
    const transfer = await viem.simulateContract({
      ...contract,
      functionName: 'transfer',
      args: [carol as Address, 1n],
      account: alice as Address,
    });
    expect(transfer.result).toBe(true);
    await expect(
      viem.simulateContract({
        ...contract,
        functionName: 'transfer',
        args: [carol as Address, 1n],
        account: carol as Address,
      }),
    ).rejects.toThrow();
  });

  test(
    'when a native transfer is fetched, then it reports ' + 'one native transfer with parties, status and block time',
    async () => {
      const tx = await client.getTransaction(nativeHash.toUpperCase().replace('0X', '0x'), noDeadline());
      expect(tx).not.toBeNull();
      expect(tx!.chain).toBe('ethereum');
      expect(tx!.hash).toBe(nativeHash.toLowerCase());
      expect(tx!.status).toBe('success');
      expect(tx!.blockNumber).toBeGreaterThan(0n);
      expect(tx!.timestamp).toBe(await blockTimestampOf(node.rpcUrl, nativeHash));
      expect(tx!.from).toBe(alice);
      expect(tx!.to).toBe(bob);
      expect(tx!.transfers).toEqual([
        {
          from: alice,
          to: bob,
          asset: { kind: 'native', symbol: 'ETH', decimals: 18 },
          amount: (3n * ETH) / 2n,
          source: 'native',
          index: 0,
        },
      ]);
    },
  );

  test(
    'when a token transfer is fetched, then its Transfer ' + 'log becomes a log transfer of the token asset',
    async () => {
      const tx = await client.getTransaction(tokenHash, noDeadline());
      expect(tx).toMatchObject({ status: 'success', from: alice, to: token });
      expect(tx!.transfers).toEqual([
        {
          from: alice,
          to: bob,
          asset: { kind: 'token', standard: 'erc20', contract: token, symbol: 'USDT', decimals: 6 },
          amount: 250_000_000n,
          source: 'log',
          index: 0,
        },
      ]);
    },
  );

  test('when the hash is unknown or malformed, then the result is null', async () => {
    await expect(client.getTransaction(randomHash(), noDeadline())).resolves.toBeNull();
    await expect(client.getTransaction('0x1234', noDeadline())).resolves.toBeNull();
  });

  test('when the transaction reverted, then it is failed and its refunded value is not a transfer', async () => {
    // The token has no payable fallback, so plain value sent to it reverts; explicit gas skips estimation.
    const hash = await sendNative({ rpcUrl: node.rpcUrl, to: token, valueWei: ETH, gas: 100_000n });
    const tx = await client.getTransaction(hash, noDeadline());
    expect(tx).toMatchObject({ status: 'failed', to: token, transfers: [] });
    expect(tx!.blockNumber).not.toBeNull();
  });

  test('when the transaction is still in the mempool, then it is pending without block or time', async () => {
    const dave = randomAddress();
    await rpc(node.rpcUrl, 'evm_setAutomine', [false]);
    try {
      const hash = await sendNative({ rpcUrl: node.rpcUrl, to: dave, valueWei: 7n, noWait: true });
      const tx = await client.getTransaction(hash, noDeadline());
      expect(tx).toMatchObject({ status: 'pending', blockNumber: null, timestamp: null, to: dave });
      expect(tx!.transfers).toEqual([expect.objectContaining({ to: dave, amount: 7n, source: 'native' })]);
    } finally {
      await rpc(node.rpcUrl, 'evm_setAutomine', [true]);
      await rpc(node.rpcUrl, 'evm_mine', []);
    }
  });

  test('when a Transfer log comes from a contract without symbol()/decimals(), then both are null', async () => {
    // Emits Transfer(caller, caller, calldata word 0) for any call and returns nothing.
    const bare = randomAddress();
    const code = assemble([
      'PUSH1 00',
      'CALLDATALOAD',
      'PUSH1 00',
      'MSTORE',
      'CALLER',
      'CALLER',
      `PUSH32 ${TRANSFER_TOPIC.slice(2)}`,
      'PUSH1 20',
      'PUSH1 00',
      'LOG3',
      'STOP',
    ]);
    await rpc(node.rpcUrl, 'anvil_setCode', [bare, code]);
    const hash = await sendTransaction({
      rpcUrl: node.rpcUrl,
      to: bare,
      data: `0x${42n.toString(16).padStart(64, '0')}`,
    });
    const tx = await client.getTransaction(hash, noDeadline());
    expect(tx!.transfers).toEqual([
      expect.objectContaining({
        asset: { kind: 'token', standard: 'erc20', contract: bare, symbol: null, decimals: null },
        amount: 42n,
        source: 'log',
      }),
    ]);
  });

  test('when an EOA received funds, then its facts show balance, token balance and inbound transfers', async () => {
    const facts = await client.getAddressFacts(
      bob.toUpperCase().replace('0X', '0x'),
      { tokens: [token], transferLimit: 10 },
      noDeadline(),
    );
    expect(facts).toMatchObject({
      address: bob,
      isContract: false,
      nativeBalance: (16n * ETH) / 10n,
      outgoingCount: 0,
    });
    expect(facts.tokenBalances).toEqual([
      {
        asset: { kind: 'token', standard: 'erc20', contract: token, symbol: 'USDT', decimals: 6 },
        amount: 250_000_000n,
      },
    ]);
    const summary = facts.transferSummary!;
    expect(summary).not.toBeNull();
    expect(summary.firstSeen).toBe(await blockTimestampOf(node.rpcUrl, nativeHash));
    expect(summary.lastSeen).toBe(await blockTimestampOf(node.rpcUrl, carolHash));
    expect(summary.lastSeen!).toBeGreaterThan(summary.firstSeen!);
    expect(summary.inboundCount).toBeGreaterThanOrEqual(2);
    expect(summary.truncated).toBe(false);
    const native = { kind: 'native', symbol: 'ETH', decimals: 18 };
    // Newest first: carol sent last.
    expect(summary.inboundCounterparties[0]).toEqual({ address: carol, asset: native, amount: ETH / 10n });
    expect(summary.inboundCounterparties).toContainEqual({ address: alice, asset: native, amount: (3n * ETH) / 2n });
  });

  test(
    'when the sender is looked up, ' + 'then its outgoing count is its nonce and it has no inbound transfers',
    async () => {
      const facts = await client.getAddressFacts(alice, { tokens: [], transferLimit: 10 }, noDeadline());
      expect(facts.outgoingCount).toBe(3);
      expect(facts.tokenBalances).toEqual([]);
      expect(facts.transferSummary).toMatchObject({ inboundCount: 0, inboundCounterparties: [] });
      expect(facts.transferSummary!.firstSeen).toBe(await blockTimestampOf(node.rpcUrl, nativeHash));
    },
  );

  test(
    'when the token contract is looked up, then it is a contract, ' +
      'tokens sent to it are inbound and reverted value is not',
    async () => {
      // Plain value to the token reverts (no payable fallback): it names the token but moved nothing.
      const reverted = await sendNative({ rpcUrl: node.rpcUrl, to: token, valueWei: ETH, gas: 100_000n });
      const facts = await client.getAddressFacts(token, { tokens: [token], transferLimit: 10 }, noDeadline());
      expect(facts.isContract).toBe(true);
      expect(facts.tokenBalances).toEqual([expect.objectContaining({ amount: 5n })]);
      expect(facts.transferSummary!.inboundCount).toBe(1);
      expect(facts.transferSummary!.inboundCounterparties).toEqual([
        {
          address: alice,
          asset: { kind: 'token', standard: 'erc20', contract: token, symbol: 'USDT', decimals: 6 },
          amount: 5n,
        },
      ]);
      expect(facts.transferSummary!.lastSeen).toBe(await blockTimestampOf(node.rpcUrl, reverted));
    },
  );

  test(
    'when the transfers are longer than one page, then it is truncated, limited, ' +
      'and firstSeen still comes from the oldest tx',
    async () => {
      const small = createEvmChainClient({ chain: 'ethereum', rpcUrl: node.rpcUrl, summaryPageSize: 1 });
      const facts = await small.getAddressFacts(bob, { tokens: [], transferLimit: 1 }, noDeadline());
      expect(facts.transferSummary).toMatchObject({ truncated: true, inboundCount: 1 });
      expect(facts.transferSummary!.inboundCounterparties).toEqual([expect.objectContaining({ address: carol })]);
      expect(facts.transferSummary!.firstSeen).toBe(await blockTimestampOf(node.rpcUrl, nativeHash));
    },
  );

  test('when a token in the list is not a contract, then it is left out rather than reported as zero', async () => {
    const facts = await client.getAddressFacts(bob, { tokens: [randomAddress()], transferLimit: 0 }, noDeadline());
    expect(facts.tokenBalances).toEqual([]);
    expect(facts.transferSummary!.inboundCounterparties).toEqual([]);
  });

  test(
    'when the node has no ots API, ' + 'then the transfer summary is null and the probe is asked only once per client',
    async () => {
      const proxy = await startProxy(node.rpcUrl, { hideOts: true });
      try {
        const plain = createEvmChainClient({ chain: 'ethereum', rpcUrl: proxy.url });
        const first = await plain.getAddressFacts(bob, { tokens: [], transferLimit: 10 }, noDeadline());
        const second = await plain.getAddressFacts(bob, { tokens: [], transferLimit: 10 }, noDeadline());
        expect(first.transferSummary).toBeNull();
        expect(second.transferSummary).toBeNull();
        expect(first.nativeBalance).toBe((16n * ETH) / 10n);
        expect(proxy.methods.filter((m) => m === 'ots_getApiLevel')).toHaveLength(1);
      } finally {
        await proxy.close();
      }
    },
  );

  test(
    'when the address is malformed, then normalizeAddress ' + 'and getAddressFacts throw InvalidAddressError',
    async () => {
      expect(client.normalizeAddress('0xAbCdEf0123456789aBcDeF0123456789AbCdEf01')).toBe(
        '0xabcdef0123456789abcdef0123456789abcdef01',
      );
      for (const bad of [
        '',
        '0x123',
        'abcdef0123456789abcdef0123456789abcdef01',
        '0xabcdef0123456789abcdef0123456789abcdef0g',
        ` ${bob}`,
        `${bob}00`,
        'TXYZ',
      ]) {
        expect(() => client.normalizeAddress(bad)).toThrow(InvalidAddressError);
      }
      await expect(
        client.getAddressFacts('0x123', { tokens: [], transferLimit: 1 }, noDeadline()),
      ).rejects.toBeInstanceOf(InvalidAddressError);
    },
  );

  test(
    'when the signal is already aborted, then calls ' + 'reject with its reason without contacting the node',
    async () => {
      const proxy = await startProxy(node.rpcUrl);
      try {
        const watched = createEvmChainClient({ chain: 'ethereum', rpcUrl: proxy.url });
        const controller = new AbortController();
        const reason = new Error('crawl deadline passed');
        controller.abort(reason);
        await expect(watched.getTransaction(nativeHash, controller.signal)).rejects.toBe(reason);
        await expect(watched.getAddressFacts(bob, { tokens: [], transferLimit: 1 }, controller.signal)).rejects.toBe(
          reason,
        );
        expect(proxy.methods).toEqual([]);
      } finally {
        await proxy.close();
      }
    },
  );

  test('when the node error message echoes the endpoint, then ChainUnavailableError carries it redacted', async () => {
    const proxy = await startProxy(node.rpcUrl, {
      errorMessage: 'upstream http://10.0.0.7/v3/SECRETKEY987654 refused',
    });
    try {
      const failing = createEvmChainClient({ chain: 'ethereum', rpcUrl: `${proxy.url}/v3/MYAPIKEY12345678` });
      const error = await failing.getTransaction(nativeHash, noDeadline()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ChainUnavailableError);
      expect((error as Error).message).toMatch(/ethereum.*eth_getTransactionByHash.*-32000/);
      expect(inspect(error)).not.toMatch(/SECRETKEY987654|MYAPIKEY12345678|10\.0\.0\.7/);
    } finally {
      await proxy.close();
    }
  });
});

describe('EVM chain client against anvil (binance-smart-chain)', () => {
  let node: AnvilNode;
  beforeAll(async () => {
    node = await startAnvil({ chainId: 56 });
  });
  afterAll(async () => {
    await node?.stop();
  });

  test('when the node runs chain id 56, then transactions and facts come back as BSC with BNB', async () => {
    expect(node.chainId).toBe(56);
    const client = createEvmChainClient({ chain: 'binance-smart-chain', rpcUrl: node.rpcUrl });
    expect(client.nativeAsset).toEqual({ kind: 'native', symbol: 'BNB', decimals: 18 });
    const to = randomAddress();
    const hash = await sendNative({ rpcUrl: node.rpcUrl, to, valueWei: 123n });
    const tx = await client.getTransaction(hash, noDeadline());
    expect(tx).toMatchObject({ chain: 'binance-smart-chain', status: 'success', to });
    expect(tx!.transfers).toEqual([
      expect.objectContaining({ asset: { kind: 'native', symbol: 'BNB', decimals: 18 }, amount: 123n }),
    ]);
    const facts = await client.getAddressFacts(to, { tokens: [], transferLimit: 5 }, noDeadline());
    expect(facts.nativeBalance).toBe(123n);
    expect(facts.transferSummary!.inboundCount).toBe(1);
  });
});

describe('EVM chain client against unreachable or hung nodes', () => {
  test(
    'when the RPC port is closed, then calls fail with ChainUnavailableError that names chain ' +
      'and method but not the URL',
    async () => {
      const port = await freePort();
      const rpcUrl = `http://user:s3cretpass@127.0.0.1:${port}/v3/APIKEY1234567890?key=QUERYSECRET`;
      const client = createEvmChainClient({ chain: 'ethereum', rpcUrl, requestTimeoutMs: 2_000 });
      const txError = await client.getTransaction(randomHash(), noDeadline()).catch((e: unknown) => e);
      const factsError = await client
        .getAddressFacts(randomAddress(), { tokens: [], transferLimit: 1 }, noDeadline())
        .catch((e: unknown) => e);
      expect(txError).toBeInstanceOf(ChainUnavailableError);
      expect(factsError).toBeInstanceOf(ChainUnavailableError);
      expect(txError).toMatchObject({ chain: 'ethereum' });
      expect((txError as Error).message).toMatch(/ethereum.*eth_getTransactionByHash.*ECONNREFUSED/);
      expect((factsError as Error).message).toMatch(/ethereum.*eth_get(Code|Balance|TransactionCount)/);
      for (const error of [txError, factsError]) {
        expect(inspect(error, { depth: 10 })).not.toMatch(
          new RegExp(`s3cretpass|APIKEY1234567890|QUERYSECRET|127\\.0\\.0\\.1:${port}`),
        );
      }
    },
  );

  test('when a call ignores the signal, then raceSignal still releases the caller with the abort reason', async () => {
    const controller = new AbortController();
    const never = new Promise<never>(() => undefined);
    const raced = raceSignal(never, controller.signal);
    const reason = new Error('deadline');
    setTimeout(() => controller.abort(reason), 20);
    await expect(raced).rejects.toBe(reason);
    await expect(raceSignal(Promise.resolve(7), new AbortController().signal)).resolves.toBe(7);
  });

  describe('with a node that accepts connections and never answers', () => {
    let server: net.Server;
    let url: string;
    const sockets = new Set<net.Socket>();
    let accepted = 0;
    beforeAll(async () => {
      server = net.createServer((socket) => {
        accepted++;
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => undefined);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    test(
      'when the crawl signal times out, then getTransaction rejects with its reason long ' +
        'before the request timeout',
      async () => {
        const client = createEvmChainClient({ chain: 'ethereum', rpcUrl: url, requestTimeoutMs: 30_000 });
        const started = Date.now();
        const error = await client.getTransaction(randomHash(), AbortSignal.timeout(300)).catch((e: unknown) => e);
        const elapsed = Date.now() - started;
        expect(error).toMatchObject({ name: 'TimeoutError' });
        expect(error).not.toBeInstanceOf(ChainUnavailableError);
        expect(elapsed).toBeGreaterThanOrEqual(250);
        expect(elapsed).toBeLessThan(2_000);
      },
    );

    test(
      'when the crawl signal times out, then getAddressFacts ' + 'rejects too and the hung socket was really used',
      async () => {
        const client = createEvmChainClient({ chain: 'ethereum', rpcUrl: url, requestTimeoutMs: 30_000 });
        const started = Date.now();
        const error = await client
          .getAddressFacts(randomAddress(), { tokens: [], transferLimit: 1 }, AbortSignal.timeout(300))
          .catch((e: unknown) => e);
        expect(error).toMatchObject({ name: 'TimeoutError' });
        expect(Date.now() - started).toBeLessThan(2_000);
        expect(accepted).toBeGreaterThan(0);
      },
    );
  });
});
