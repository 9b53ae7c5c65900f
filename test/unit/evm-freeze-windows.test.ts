import { FreezeNodeError, type EvmFreezeNode, type FreezeLog } from '../../src/lists/freezes/evm-freeze-node';
import type { FreezeContract, FreezeCursor, FreezeStore } from '../../src/lists/freezes/freeze-store';
import { type EvmFreezeSettings, MAX_WINDOWS_PER_RUN, syncEvmFreezes } from '../../src/lists/freezes/sync-evm-freezes';

/** The EVM reader's windows over a fake node and store: range refusals, the window limit, the start, the chain id. */
const CONTRACT: FreezeContract = {
  chain: 'ethereum',
  token: 'USDT',
  contract: '0xdac17f958d2ee523a2206206994597c13d831ec7',
};

function fakeStore(start: FreezeCursor | null = null) {
  let cursor = start;
  const windows: { from: FreezeCursor | null; to: FreezeCursor; events: number }[] = [];
  const store: FreezeStore = {
    cursor: async () => cursor,
    applyWindow: async (_contract, expected, events, next) => {
      if (expected?.lastBlock !== cursor?.lastBlock) return null;
      windows.push({ from: cursor, to: next, events: events.length });
      cursor = next;
      return { changed: events.length };
    },
  };
  return { store, windows, cursor: () => cursor };
}

/**
 * A node of chain `chainId` at `head` that refuses eth_getLogs over more than `maxRange` blocks, with one freeze log
 * at `eventBlock`.
 */
function fakeNode(head: bigint, maxRange: bigint, eventBlock: bigint, chainId = 1) {
  const asked: [bigint, bigint][] = [];
  const node: EvmFreezeNode = {
    chainId: async () => chainId,
    head: async () => head,
    blockTime: async (block) => 1_700_000_000_000 + Number(block) * 12_000,
    freezeLogs: async (_token, _contract, from, to) => {
      asked.push([from, to]);
      if (to - from + 1n > maxRange)
        throw new FreezeNodeError(
          'ethereum node failed on eth_getLogs: RPC error -32005: exceed maximum block range',
          true,
        );
      const log: FreezeLog = {
        chain: 'ethereum',
        token: 'USDT',
        kind: 'add',
        address: '0x00000000000000000000000000000000000000aa',
        block: eventBlock,
        index: 3,
        tx: `0x${'ab'.repeat(32)}`,
        blockTimestampMs: null,
      };
      return eventBlock >= from && eventBlock <= to ? [log] : [];
    },
  };
  return { node, asked };
}

const settings = (overrides: Partial<EvmFreezeSettings> = {}): EvmFreezeSettings => ({
  chain: 'ethereum',
  chainId: 1,
  rpcVariable: 'ETHEREUM_RPC_URL',
  contracts: [CONTRACT],
  confirmations: 12,
  windowBlocks: 100,
  startBlock: null,
  ...overrides,
});

test(
  'when the node refuses a window as too large, then it is halved until it answers, ' + 'and later windows ask no more',
  async () => {
    const { store, windows, cursor } = fakeStore({ lastBlock: 999n, lastBlockTimestamp: null });
    const { node, asked } = fakeNode(1_000n + 200n + 12n - 1n, 25n, 1_010n);

    const [result] = await syncEvmFreezes({ store, node }, settings());

    // [1000, 1099] → halves → quarters of 25 blocks answer; every later window asks for 25 at most.
    expect(asked.slice(0, 3)).toEqual([
      [1_000n, 1_099n],
      [1_000n, 1_049n],
      [1_000n, 1_024n],
    ]);
    const afterFirstWindow = asked.filter(([from]) => from >= 1_100n);
    expect(afterFirstWindow[0]).toEqual([1_100n, 1_124n]);
    expect(afterFirstWindow.every(([from, to]) => to - from + 1n <= 25n)).toBe(true);
    expect(result).toMatchObject({ events: 1, changed: 1, caughtUp: true, to: '1199' });
    expect(cursor()).toEqual({ lastBlock: 1_199n, lastBlockTimestamp: null });
    expect(windows[0]).toMatchObject({ to: { lastBlock: 1_099n }, events: 1 });
  },
);

test(
  'when the node refuses a single block, then the run ' + 'fails with the chain unavailable, and the cursor stays',
  async () => {
    const { store, cursor } = fakeStore({ lastBlock: 999n, lastBlockTimestamp: null });
    const { node } = fakeNode(2_000n, 0n, 1_010n);

    await expect(syncEvmFreezes({ store, node }, settings())).rejects.toMatchObject({ code: 'CHAIN_UNAVAILABLE' });
    expect(cursor()).toEqual({ lastBlock: 999n, lastBlockTimestamp: null });
  },
);

test('when far behind, then a run stops after its window limit, not caught up, and the next run goes on', async () => {
  const { store, cursor } = fakeStore({ lastBlock: 0n, lastBlockTimestamp: null });
  const { node } = fakeNode(1_000_000n, 1_000n, 5n);

  const [first] = await syncEvmFreezes({ store, node }, settings({ windowBlocks: 10 }));
  expect(first).toMatchObject({ windows: MAX_WINDOWS_PER_RUN, caughtUp: false, to: String(MAX_WINDOWS_PER_RUN * 10) });
  const [second] = await syncEvmFreezes({ store, node }, settings({ windowBlocks: 10 }));
  expect(second).toMatchObject({ from: String(MAX_WINDOWS_PER_RUN * 10 + 1) });
  expect(cursor()?.lastBlock).toBe(BigInt(2 * MAX_WINDOWS_PER_RUN * 10));
});

test('without a cursor, the start block wins over the default of one window before the confirmed head', async () => {
  const { store } = fakeStore();
  const { node, asked } = fakeNode(10_000n, 1_000n, 5n);

  const [fromStart] = await syncEvmFreezes({ store, node }, settings({ startBlock: 9_900n }));
  expect(fromStart).toMatchObject({ from: '9900', to: '9988', caughtUp: true });

  const other = fakeStore();
  const [byDefault] = await syncEvmFreezes({ store: other.store, node }, settings());
  expect(byDefault).toMatchObject({ from: String(10_000 - 12 - 100 + 1), to: '9988', windows: 1 });
  expect(asked.at(-1)).toEqual([9_889n, 9_988n]);
});

test(
  'when the node is of another network than the one read, then nothing is read and the run fails for good, ' +
    'naming the variable',
  async () => {
    const { store, cursor } = fakeStore({ lastBlock: 999n, lastBlockTimestamp: null });
    const { node, asked } = fakeNode(2_000n, 1_000n, 1_010n, 8453);
    const arbitrum = settings({
      chain: 'arbitrum',
      chainId: 42161,
      rpcVariable: 'ARBITRUM_RPC_URL',
      contracts: [{ chain: 'arbitrum', token: 'USDC', contract: '0xaf88d065e77c8cc2239327c5edb3a432268e5831' }],
    });

    const failure = syncEvmFreezes({ store, node }, arbitrum);

    await expect(failure).rejects.toMatchObject({
      code: 'CHAIN_UNAVAILABLE',
      retryable: false,
      message: expect.stringContaining('ARBITRUM_RPC_URL points at a node for chain id 8453, not 42161 (arbitrum)'),
    });
    expect(asked).toEqual([]);
    expect(cursor()).toEqual({ lastBlock: 999n, lastBlockTimestamp: null });
  },
);

test('when the network is not Ethereum, then its results are named after it', async () => {
  const { store } = fakeStore({ lastBlock: 999n, lastBlockTimestamp: null });
  const { node } = fakeNode(1_100n, 1_000n, 1_010n, 8453);
  const contract: FreezeContract = { chain: 'base', token: 'USDC', contract: `0x${'12'.repeat(20)}` };

  const [result] = await syncEvmFreezes(
    { store, node },
    settings({ chain: 'base', chainId: 8453, rpcVariable: 'BASE_RPC_URL', contracts: [contract] }),
  );

  expect(result).toMatchObject({ chain: 'base', token: 'USDC', contract: contract.contract, events: 1 });
});
