import { FreezeNodeError, type EthereumFreezeNode, type FreezeLog } from '../../src/lists/freezes/ethereum-node';
import type { FreezeContract, FreezeCursor, FreezeStore } from '../../src/lists/freezes/freeze-store';
import { MAX_WINDOWS_PER_RUN, syncEthereumFreezes } from '../../src/lists/freezes/sync-ethereum-freezes';

/** The Ethereum reader's windows over a fake node and store: range refusals, the window limit, the start. */
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

/** A node at `head` that refuses eth_getLogs over more than `maxRange` blocks, with one freeze log at `eventBlock`. */
function fakeNode(head: bigint, maxRange: bigint, eventBlock: bigint) {
  const asked: [bigint, bigint][] = [];
  const node: EthereumFreezeNode = {
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

const settings = (overrides: object = {}) => ({
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

    const [result] = await syncEthereumFreezes({ store, node }, settings());

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

    await expect(syncEthereumFreezes({ store, node }, settings())).rejects.toMatchObject({ code: 'CHAIN_UNAVAILABLE' });
    expect(cursor()).toEqual({ lastBlock: 999n, lastBlockTimestamp: null });
  },
);

test('when far behind, then a run stops after its window limit, not caught up, and the next run goes on', async () => {
  const { store, cursor } = fakeStore({ lastBlock: 0n, lastBlockTimestamp: null });
  const { node } = fakeNode(1_000_000n, 1_000n, 5n);

  const [first] = await syncEthereumFreezes({ store, node }, settings({ windowBlocks: 10 }));
  expect(first).toMatchObject({ windows: MAX_WINDOWS_PER_RUN, caughtUp: false, to: String(MAX_WINDOWS_PER_RUN * 10) });
  const [second] = await syncEthereumFreezes({ store, node }, settings({ windowBlocks: 10 }));
  expect(second).toMatchObject({ from: String(MAX_WINDOWS_PER_RUN * 10 + 1) });
  expect(cursor()?.lastBlock).toBe(BigInt(2 * MAX_WINDOWS_PER_RUN * 10));
});

test('without a cursor, the start block wins over the default of one window before the confirmed head', async () => {
  const { store } = fakeStore();
  const { node, asked } = fakeNode(10_000n, 1_000n, 5n);

  const [fromStart] = await syncEthereumFreezes({ store, node }, settings({ startBlock: 9_900n }));
  expect(fromStart).toMatchObject({ from: '9900', to: '9988', caughtUp: true });

  const other = fakeStore();
  const [byDefault] = await syncEthereumFreezes({ store: other.store, node }, settings());
  expect(byDefault).toMatchObject({ from: String(10_000 - 12 - 100 + 1), to: '9988', windows: 1 });
  expect(asked.at(-1)).toEqual([9_889n, 9_988n]);
});
