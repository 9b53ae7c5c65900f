import { tronAddressOf } from '../../src/lists/freezes/tron-hex-address';
import { createTronFreezeEvents } from '../../src/lists/freezes/trongrid-freeze-events';
import { tronHexToBase58 } from '../../src/screening/chains/tron-address';
import { startReplayServer, type ReplayServer } from '../helpers/replay-server';
import {
  ADDRESSES,
  eventsQuery,
  FIRST_END,
  firstWindowCassettes,
  PAGE_SIZE,
  page,
  TRON_USDT,
  WINDOW_START,
} from '../helpers/trongrid-freeze-pages';

/** TronGrid's events API as the freeze sync reads it, over the composed pages (test/fixtures/tron/trongrid-events). */
let replay: ReplayServer;
const sentHeaders: Headers[] = [];
const recordingFetch: typeof fetch = (input, init) => {
  sentHeaders.push(new Headers(init?.headers));
  return fetch(input, init);
};

const reader = (options: { maxPages?: number } = {}) =>
  createTronFreezeEvents(
    {
      apiUrl: replay.url,
      apiKey: 'trongrid-test-key',
      timeoutMs: 5_000,
      pageSize: PAGE_SIZE,
      fetch: recordingFetch,
      ...options,
    },
    tronAddressOf,
  );

beforeEach(async () => {
  replay = await startReplayServer([
    ...firstWindowCassettes(),
    {
      request: { method: 'GET', path: `/v1/contracts/${TRON_USDT}/events`, query: eventsQuery('Refused', 1, 2) },
      response: { body: { success: false, error: 'invalid event name' } },
    },
  ]);
  sentHeaders.length = 0;
});

afterEach(async () => {
  expect(replay.misses).toEqual([]);
  await replay.close();
});

describe('TronGrid freeze events', () => {
  test('when a name has two pages, then both are read by fingerprint, oldest first, addresses in base58', async () => {
    const read = await reader().read(TRON_USDT, 'AddedBlackList', WINDOW_START, FIRST_END);

    expect(read.truncatedAt).toBeNull();
    expect(read.events).toEqual([
      {
        chain: 'tron',
        token: 'USDT',
        kind: 'add',
        address: ADDRESSES.addedThenRemoved,
        block: 75_901_200n,
        index: 0,
        at: '2025-10-01T01:00:00Z',
        tx: `e1${'01'.repeat(31)}`,
      },
      expect.objectContaining({ address: ADDRESSES.added, at: '2025-10-01T02:00:00Z' }),
      expect.objectContaining({ address: ADDRESSES.addedOnPageTwo, at: '2025-10-01T03:00:00Z' }),
    ]);
    expect(replay.served).toHaveLength(2);
    expect(replay.served[1]).toContain('fingerprint=');
    // The key goes in TronGrid's header, as the screening client sends it; never in the URL.
    expect(sentHeaders.map((h) => h.get('TRON-PRO-API-KEY'))).toEqual(['trongrid-test-key', 'trongrid-test-key']);
  });

  test(
    'when a destroy is read, then its balance is in ' + 'the token’s units and a 41… address is read too',
    async () => {
      const destroyed = await reader().read(TRON_USDT, 'DestroyedBlackFunds', WINDOW_START, FIRST_END);
      const removed = await reader().read(TRON_USDT, 'RemovedBlackList', WINDOW_START, FIRST_END);

      expect(destroyed.events).toEqual([
        expect.objectContaining({ kind: 'destroy', address: ADDRESSES.shipped, amount: 1_500_000n, index: 1 }),
      ]);
      expect(removed.events.map((e) => [e.kind, e.address])).toEqual([
        ['remove', ADDRESSES.addedThenRemoved],
        ['remove', ADDRESSES.shipped],
      ]);
    },
  );

  test('when the page limit ends a read, then it says where, and the rest waits for the next window', async () => {
    const read = await reader({ maxPages: 1 }).read(TRON_USDT, 'AddedBlackList', WINDOW_START, FIRST_END);

    expect(read.events).toHaveLength(2);
    expect(read.truncatedAt).toBe(WINDOW_START + 2 * 3_600_000);
    expect(replay.served).toHaveLength(1);
  });

  test('when TronGrid answers success: false, then the read fails as the chain being unavailable', async () => {
    await expect(reader().read(TRON_USDT, 'Refused' as never, 1, 2)).rejects.toMatchObject({
      code: 'CHAIN_UNAVAILABLE',
      message: expect.stringContaining('invalid event name'),
    });
  });

  test(
    'the events’ hex spellings convert to the base58 ' + 'the reference data uses, as the screening client does',
    () => {
      const body = page('removed-blacklist') as { data: { result: { _user: string } }[] };
      for (const hex of [...body.data.map((e) => e.result._user), '41a614f803b6fd780986a42c78ec9c7f77e6ded13c'])
        expect(tronAddressOf(hex)).toBe(tronHexToBase58(hex));
      expect(tronAddressOf('0x41a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe(TRON_USDT);
      expect(tronAddressOf(TRON_USDT)).toBe(TRON_USDT);
      expect(tronAddressOf('0x1234')).toBeNull();
    },
  );
});
