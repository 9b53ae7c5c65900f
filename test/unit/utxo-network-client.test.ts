import { createUtxoNetworkClient } from '../../src/screening/chains/utxo-network-client';
import { normalizeAddress } from '../../src/screening/chains/target-format';
import { startReplayServer, type ReplayServer } from '../helpers/replay-server';

/**
 * The Esplora client on a network whose API may spell addresses otherwise than the reference data: a Bitcoin Cash
 * API asked for `bitcoincash:q…`, answering with prefixed and legacy addresses. The transaction is constructed in
 * Esplora's shape (the fields the client reads), not recorded.
 */
const LISTED = 'qpf2cphc5dkuclkqur7lhj2yuqq9pk3hmukle77vhq'; // OFAC SOUTHFRONT
const GENESIS_LEGACY = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const GENESIS = normalizeAddress('bitcoin-cash', GENESIS_LEGACY)!;
const TXID = 'cd'.repeat(32);
const tx = {
  txid: TXID,
  vin: [
    { is_coinbase: false, prevout: { scriptpubkey_address: `bitcoincash:${LISTED}`, value: 1_000_000 } },
    { is_coinbase: false, prevout: { scriptpubkey_address: LISTED, value: 500_000 } },
  ],
  vout: [
    { scriptpubkey_address: GENESIS_LEGACY, value: 1_200_000 },
    { scriptpubkey_address: `bitcoincash:${LISTED}`, value: 299_000 },
  ],
  status: { confirmed: true, block_height: 850_000, block_time: 1_718_000_000 },
};

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer([
    { request: { method: 'GET', path: `/bch/address/bitcoincash:${LISTED}/txs/chain` }, response: { body: [tx] } },
    { request: { method: 'GET', path: `/bch/tx/${TXID}` }, response: { body: tx } },
  ]);
});
afterAll(async () => {
  expect(server.misses).toEqual([]);
  await server.close();
});

const client = () =>
  createUtxoNetworkClient('bitcoin-cash', {
    baseUrl: `${server.url}/bch`,
    requestTimeoutMs: 5_000,
    ratePerSecond: 100,
  });

describe('a Bitcoin Cash Esplora-compatible API', () => {
  test(
    'when an address is read, then the API is asked for its full CashAddr and every address it answers is ' +
      'the reference data’s form, so the screened address recognises its own inputs and change',
    async () => {
      const { transfers, truncated } = await client().getAddressTransfers!(
        `bitcoincash:${LISTED}`,
        { limit: 50 },
        new AbortController().signal,
      );

      expect(GENESIS).toMatch(/^q/);
      expect(truncated).toBe(false);
      // One outgoing edge: the change back to itself (written with the prefix) is no movement.
      expect(transfers).toEqual([
        {
          txid: TXID,
          timestamp: 1_718_000_000,
          direction: 'out',
          counterparty: GENESIS,
          asset: { kind: 'native', symbol: 'BCH', decimals: 8 },
          amount: 1_200_000n,
        },
      ]);
    },
  );

  test('when a transaction is read, then it is on bitcoin-cash, in BCH, its parties in CashAddr form', async () => {
    const read = await client().getTransaction(TXID, new AbortController().signal);

    expect(read).toMatchObject({ chain: 'bitcoin-cash', hash: TXID, status: 'success', from: LISTED, to: GENESIS });
    expect(new Set(read!.transfers.map((t) => t.asset.symbol))).toEqual(new Set(['BCH']));
  });
});
