import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createEsploraBitcoinClient } from '../../../src/screening/chains/bitcoin-client';
import { ChainUnavailableError, InvalidAddressError } from '../../../src/screening/chains/chain-client';
import { startReplayServer, type Cassette, type ReplayServer } from '../../helpers/replay-server';

/** Real Esplora bodies recorded by BitGoJS against Blockstream (testnet3); provenance in SOURCES.md. */
const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/chains/bitcoin/esplora', name), 'utf8'));

const TX_IN = '19c6cd6b7b8a91e1a63d759eedd2818877a624771d38e00c3ffcedfdd09afc50';
const TX_OUT = '87f4cf756eef9979f0fb6a03db2ab2e0fd46060cf97714a990623093fe227a87';
const txIn = fixture(`tx_${TX_IN}.json`) as { fee: number };
const txOut = fixture(`tx_${TX_OUT}.json`);
const utxos = fixture('address_2NEhVzd2Lom5g7ZF5K1qYrgZLpXecniqHcE_utxo.json') as { value: number }[];

// Addresses as they appear in those two transactions.
const RECIPIENT = '2NEhVzd2Lom5g7ZF5K1qYrgZLpXecniqHcE'; // output 0 of TX_IN
const SENDER = 'tb1q2ajf7llsxvff7r0fpm42tmd5nz43cr8mg85f3788rm4cy7uwajdsusr2mg'; // only input of TX_IN
const CHANGE = 'tb1q2wqmwu89mh5ztajnvasj8nr32szq6mfwxzvgvqyydzv8xpnvdpvq34wgpv'; // output 1 of TX_IN
const SPENDER = '2NCgafDsUvFi6tg5bHED6C6Q4shmH7n8jkR'; // only input of TX_OUT
const BTC = { kind: 'native', symbol: 'BTC', decimals: 8 };
const UNKNOWN_TX = 'aa'.repeat(32);

const get = (p: string, body: unknown, extra: Partial<Cassette> = {}): Cassette => ({
  request: { method: 'GET', path: `/bitcoin${p}` },
  response: { body },
  ...extra,
});

/*
 * No recorded Esplora address pages exist, so these are COMPOSED from the real bodies above:
 * - a /txs/chain page is the array of the real tx bodies that involve the address (each address above
 *   appears in exactly one of them);
 * - /address/2NEh… carries chain_stats matching the real /utxo answer (one unspent 1 BTC output from TX_IN,
 *   nothing spent). That the address had no other transactions is an assumption the real bodies do not contradict.
 */
const composed: Cassette[] = [
  get(`/address/${RECIPIENT}`, {
    address: RECIPIENT,
    chain_stats: {
      funded_txo_count: 1,
      funded_txo_sum: utxos[0]!.value,
      spent_txo_count: 0,
      spent_txo_sum: 0,
      tx_count: 1,
    },
    mempool_stats: { funded_txo_count: 0, funded_txo_sum: 0, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 0 },
  }),
  get(`/address/${RECIPIENT}/txs/chain`, [txIn]),
  get(`/address/${SENDER}/txs/chain`, [txIn]),
  get(`/address/${SPENDER}/txs/chain`, [txOut]),
];
const recorded: Cassette[] = [
  get(`/tx/${TX_IN}`, txIn),
  get(`/tx/${TX_OUT}`, txOut),
  // Esplora answers an unknown txid with 404 "Transaction not found".
  get(`/tx/${UNKNOWN_TX}`, 'Transaction not found', { response: { status: 404, body: 'Transaction not found' } }),
];

const noDeadline = () => new AbortController().signal;
const servers: ReplayServer[] = [];
async function setup(cassettes: Cassette[] = [...recorded, ...composed]) {
  const server = await startReplayServer(cassettes);
  servers.push(server);
  const client = createEsploraBitcoinClient({
    baseUrl: `${server.url}/bitcoin`,
    requestTimeoutMs: 5_000,
    ratePerSecond: 100,
  });
  return { server, client };
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    expect(server.misses).toEqual([]);
    await server.close();
  }
});

describe('Esplora bitcoin client', () => {
  it(
    'when addresses from the fixtures and the BIP-350 vectors ' + 'are given, then they normalise (bech32 lower-cased)',
    async () => {
      const { client } = await setup([]);
      for (const a of [
        RECIPIENT,
        SPENDER,
        SENDER,
        '18dxbN6m8zxieN8F9BchXmhbeXUdFLr8fD',
        '1PZMgkF2x161qvfP7dhoWSEEU3SjnQE1m9',
      ]) {
        expect(client.normalizeAddress(a)).toBe(a);
      }
      expect(client.normalizeAddress(SENDER.toUpperCase())).toBe(SENDER);
      expect(client.normalizeAddress('BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')).toBe(
        'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      );
      expect(client.normalizeAddress('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0')).toBe(
        'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
      );
    },
  );

  it.each([
    ['a base58 checksum error', '18dxbN6m8zxieN8F9BchXmhbeXUdFLr8fE'],
    ['a bech32 checksum error', `${SENDER.slice(0, -1)}q`],
    ['a character outside base58', '0PZMgkF2x161qvfP7dhoWSEEU3SjnQE1m9'],
    ['a character outside bech32', `${SENDER.slice(0, 10)}b${SENDER.slice(11)}`],
    ['mixed case bech32', 'tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq'],
    [
      'a v1 program with a bech32 (not bech32m) checksum',
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd',
    ],
    ['an unknown human-readable part', 'tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut'],
    ['an empty string', ''],
    ['an ethereum address', '0x52908400098527886e0f7030069857d2e4169ee7'],
  ])('when the address has %s, then InvalidAddressError is thrown and nothing is requested', async (_why, raw) => {
    const { client, server } = await setup([]);
    expect(() => client.normalizeAddress(raw)).toThrow(InvalidAddressError);
    await expect(client.getAddressFacts(raw, { tokens: [], transferLimit: 5 }, noDeadline())).rejects.toBeInstanceOf(
      InvalidAddressError,
    );
    expect(server.served).toEqual([]);
  });

  it('when a recorded transaction is fetched, then every input and output is a utxo transfer in satoshis', async () => {
    const { client } = await setup();
    const tx = await client.getTransaction(TX_IN.toUpperCase(), noDeadline());
    expect(tx).toEqual({
      chain: 'bitcoin',
      hash: TX_IN,
      status: 'success',
      blockNumber: 2131550n,
      timestamp: 1639665463,
      from: SENDER,
      to: RECIPIENT,
      transfers: [
        { from: SENDER, to: null, asset: BTC, amount: 9798898443n, source: 'utxo', index: 0 },
        { from: null, to: RECIPIENT, asset: BTC, amount: 100000000n, source: 'utxo', index: 1 },
        { from: null, to: CHANGE, asset: BTC, amount: 9698898249n, source: 'utxo', index: 2 },
      ],
    });
    // Inputs minus outputs is the recorded fee: nothing was dropped or double counted.
    expect(9798898443n - 100000000n - 9698898249n).toBe(BigInt(txIn.fee));
  });

  it('when the txid is unknown or malformed, then the answer is null', async () => {
    const { client, server } = await setup();
    expect(await client.getTransaction(UNKNOWN_TX, noDeadline())).toBeNull();
    expect(await client.getTransaction('not-a-txid', noDeadline())).toBeNull();
    expect(server.served).toEqual([`GET /bitcoin/tx/${UNKNOWN_TX}`]);
  });

  it(
    'when the address received in a transaction, then the edge is inbound from the input ' +
      'address with the received amount',
    async () => {
      const { client } = await setup();
      expect(await client.getAddressTransfers!(RECIPIENT, { limit: 10 }, noDeadline())).toEqual({
        transfers: [
          { txid: TX_IN, timestamp: 1639665463, direction: 'in', counterparty: SENDER, asset: BTC, amount: 100000000n },
        ],
        truncated: false,
      });
    },
  );

  it('when the address funded the inputs, then each other output is an outgoing edge', async () => {
    const { client, server } = await setup();
    const page = await client.getAddressTransfers!(SENDER.toUpperCase(), { limit: 50 }, noDeadline());
    expect(page).toEqual({
      transfers: [
        {
          txid: TX_IN,
          timestamp: 1639665463,
          direction: 'out',
          counterparty: RECIPIENT,
          asset: BTC,
          amount: 100000000n,
        },
        { txid: TX_IN, timestamp: 1639665463, direction: 'out', counterparty: CHANGE, asset: BTC, amount: 9698898249n },
      ],
      truncated: false,
    });
    // A short page is the last one: no cursor request even though 50 were allowed.
    expect(server.served).toEqual([`GET /bitcoin/address/${SENDER}/txs/chain`]);

    const cut = await client.getAddressTransfers!(SPENDER, { limit: 1 }, noDeadline());
    expect(cut).toEqual({
      transfers: [
        {
          txid: TX_OUT,
          timestamp: 1542731460,
          direction: 'out',
          counterparty: '2My1QBzpW7sPdRLeUab7ta1adeKpWferNbs',
          asset: BTC,
          amount: 100000n,
        },
      ],
      truncated: true,
    });
  });

  it(
    'when address facts are read, then balance, counts ' +
      'and the transfer summary come from the stats and the page of transactions',
    async () => {
      const { client } = await setup();
      expect(await client.getAddressFacts(RECIPIENT, { tokens: [], transferLimit: 5 }, noDeadline())).toEqual({
        address: RECIPIENT,
        isContract: false,
        nativeBalance: 100000000n,
        tokenBalances: [],
        outgoingCount: 0,
        transferSummary: {
          firstSeen: 1639665463,
          lastSeen: 1639665463,
          inboundCount: 1,
          inboundCounterparties: [{ address: SENDER, asset: BTC, amount: 100000000n }],
          truncated: false,
        },
      });
    },
  );

  it('when Esplora answers 429 with Retry-After, then the client waits and retries to the right result', async () => {
    const { client } = await setup([
      get(
        `/tx/${TX_OUT}`,
        { error: 'rate limited' },
        { times: 1, response: { status: 429, body: 'Too Many Requests', headers: { 'retry-after': '1' } } },
      ),
      ...recorded,
    ]);
    const started = Date.now();
    const tx = await client.getTransaction(TX_OUT, noDeadline());
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(tx?.transfers.map((t) => [t.from ?? t.to, t.amount])).toEqual([
      [SPENDER, 1000000n],
      ['2My1QBzpW7sPdRLeUab7ta1adeKpWferNbs', 100000n],
      ['2NFxDVK4y8KjMRsurZHZuyjtcMtH6hLVhPi', 899065n],
    ]);
    expect(client.metrics().retries).toBeGreaterThanOrEqual(1);
    expect(client.metrics().rateLimited).toBe(1);
  });

  it('when Esplora answers 503 on every attempt, then the call ends in ChainUnavailableError', async () => {
    const { client } = await setup([
      get(`/tx/${TX_IN}`, 'Service Unavailable', { response: { status: 503, body: 'Service Unavailable' } }),
    ]);
    await expect(client.getTransaction(TX_IN, noDeadline())).rejects.toBeInstanceOf(ChainUnavailableError);
    expect(client.metrics()).toMatchObject({ requests: 4, failures: 1 });
  });

  it('when Esplora never answers, then the call ends with the deadline signal reason promptly', async () => {
    const { client } = await setup([get(`/address/${RECIPIENT}/txs/chain`, [], { hang: true })]);
    const signal = AbortSignal.timeout(300);
    const started = Date.now();
    const error = await client.getAddressTransfers!(RECIPIENT, { limit: 5 }, signal).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1_300);
    expect(error).toBe(signal.reason);
    expect((error as Error).name).toBe('TimeoutError');
  });
});
