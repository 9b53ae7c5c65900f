import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ChainUnavailableError, InvalidAddressError } from '../../../src/screening/chains/chain-client';
import { createXrplClient } from '../../../src/screening/chains/xrpl-client';
import { startReplayServer, type Cassette, type ReplayServer } from '../../helpers/replay-server';

/** Real rippled responses from xrpl.js' mock rippled (WebSocket-shaped); provenance in SOURCES.md. */
const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/chains/ripple/rippled', name), 'utf8'));
/** Over JSON-RPC HTTP the same `result` object arrives as `{"result": …}`. */
const resultOf = (f: Record<string, unknown>) => (f.result ?? f) as Record<string, unknown>;

const payment = resultOf(fixture('tx__payment.json')) as { tx_json: Record<string, unknown>; meta: unknown };
const partial = resultOf(fixture('partialPaymentXRP.json')) as { tx_json: Record<string, unknown>; meta: unknown };
const offer = resultOf(fixture('tx__offerCreateSell.json'));
const accountInfo = resultOf(fixture('accountInfo.json'));
const accountTx = resultOf(fixture('accountTx.json'));

const PAYMENT_HASH = 'F4AB442A6D4CBB935D66E1DA7309A5FC71C7143ED4049053EC14E3875B0CF9BF';
const PARTIAL_HASH = 'A0A074D10355223CBE2520A42F93A52E3CC8B4D692570EB4841084F9BBB39F7A';
const OFFER_HASH = '458101D51051230B1D56E9ACAFAA34451BF65FA000F95DF6F0FF5B3A62D83FC2';
const UNKNOWN_HASH = 'AB'.repeat(32);
const PAYER = 'r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59'; // payment sender, account_info subject
const ISSUER = 'rMH4UxPrbuMa1spCBR98hLLyNJp4d8p4tM'; // payment destination and USD issuer
const PARTIAL_FROM = 'rGFuMiw48HdbnrUbkRYuitXTmfrDBNTCnX';
const PARTIAL_TO = 'rNNuQMuExCiEjeZ4h9JJnj5PSWypdMXDj4';
const CHECKS = 'rf1BiGeXwwQoi8Z2ueFYTEXSwuJYfV2Jpn'; // account_tx subject (CheckCreate, DepositPreauth)
const UNFUNDED = 'rrrrrrrrrrrrrrrrrrrrBZbvji'; // ACCOUNT_ONE, a placeholder that never holds an account root
const XRP = { kind: 'native', symbol: 'XRP', decimals: 6 };
const USD = { kind: 'token', standard: 'xrpl-iou', contract: `USD.${ISSUER}`, symbol: 'USD', decimals: 6 };
const PAYMENT_TIME = 416447810 + 946684800;

const rpc = (
  method: string,
  params: Record<string, unknown>,
  result: unknown,
  extra: Partial<Cassette> = {},
): Cassette => ({
  request: { method: 'POST', path: '/xrpl', rpc: { method, params: [params] } },
  response: { body: { result } },
  ...extra,
});
const txCall = (hash: string, result: unknown, extra?: Partial<Cassette>) =>
  rpc('tx', { transaction: hash, binary: false }, result, extra);
const accountTxCall = (account: string, limit: number, result: unknown, extra?: Partial<Cassette>) =>
  rpc('account_tx', { account, ledger_index_min: -1, ledger_index_max: -1, limit, forward: false }, result, extra);
/** rippled's error envelope (HTTP 200, status "error"), composed after the documented shape. */
const rippledError = (error: string, message: string) => ({ error, error_message: message, status: 'error' });

/*
 * No recorded account_tx pages contain a Payment, so these pages are COMPOSED from the real tx bodies, in the
 * same entry shape as the real accountTx.json ({meta, tx_json, validated}). Each carries an (opaque, made-up)
 * marker: a one-transaction page must not claim to hold every transaction, and for the payer the real bodies
 * show more exists (Sequence 23 in account_info, 4 in the payment).
 */
const pageOf = (account: string, limit: number, ...txs: { tx_json: unknown; meta: unknown }[]) => ({
  account,
  limit,
  marker: { ledger: 348859, seq: 0 },
  transactions: txs.map((t) => ({ meta: t.meta, tx_json: t.tx_json, validated: true })),
  validated: true,
});

const cassettes: Cassette[] = [
  txCall(PAYMENT_HASH, payment),
  txCall(PARTIAL_HASH, partial),
  txCall(OFFER_HASH, offer),
  txCall(UNKNOWN_HASH, rippledError('txnNotFound', 'Transaction not found.')),
  rpc('account_info', { account: PAYER, ledger_index: 'validated' }, accountInfo),
  rpc(
    'account_info',
    { account: UNFUNDED, ledger_index: 'validated' },
    rippledError('actNotFound', 'Account not found.'),
  ),
  accountTxCall(PAYER, 50, pageOf(PAYER, 50, payment)),
  accountTxCall(ISSUER, 10, pageOf(ISSUER, 10, payment)),
  accountTxCall(PARTIAL_TO, 10, pageOf(PARTIAL_TO, 10, partial)),
  accountTxCall(CHECKS, 2, accountTx),
];

const noDeadline = () => new AbortController().signal;
const servers: ReplayServer[] = [];
async function setup(list: Cassette[] = cassettes) {
  const server = await startReplayServer(list);
  servers.push(server);
  return {
    server,
    client: createXrplClient({ rpcUrl: `${server.url}/xrpl`, requestTimeoutMs: 5_000, ratePerSecond: 100 }),
  };
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    expect(server.misses).toEqual([]);
    await server.close();
  }
});

describe('XRPL JSON-RPC client', () => {
  it('when classic addresses from the fixtures are given, then they normalise unchanged', async () => {
    const { client } = await setup([]);
    for (const a of [PAYER, ISSUER, PARTIAL_FROM, PARTIAL_TO, CHECKS, UNFUNDED])
      expect(client.normalizeAddress(a)).toBe(a);
    expect(client.normalizeAddress(` ${PAYER} `)).toBe(PAYER);
  });

  it.each([
    ['a checksum error', `${PAYER.slice(0, -1)}a`],
    ['a character outside the XRPL alphabet', `${PAYER.slice(0, -1)}0`],
    ['a bitcoin address', '18dxbN6m8zxieN8F9BchXmhbeXUdFLr8fD'],
    ['an empty string', ''],
  ])('when the address has %s, then InvalidAddressError is thrown and nothing is requested', async (_why, raw) => {
    const { client, server } = await setup([]);
    expect(() => client.normalizeAddress(raw)).toThrow(InvalidAddressError);
    await expect(client.getAddressTransfers!(raw, { limit: 5 }, noDeadline())).rejects.toBeInstanceOf(
      InvalidAddressError,
    );
    expect(server.served).toEqual([]);
  });

  it('when a partial payment is fetched, then the value is delivered_amount, not the larger DeliverMax', async () => {
    const { client } = await setup();
    const tx = await client.getTransaction(PARTIAL_HASH.toLowerCase(), noDeadline());
    expect(tx).toEqual({
      chain: 'ripple',
      hash: PARTIAL_HASH,
      status: 'success',
      blockNumber: null,
      timestamp: null,
      from: PARTIAL_FROM,
      to: PARTIAL_TO,
      transfers: [
        { from: PARTIAL_FROM, to: PARTIAL_TO, asset: XRP, amount: 1000000n, source: 'delivered_amount', index: 0 },
      ],
      destinationTag: null,
    });
    expect(partial.tx_json.DeliverMax).toBe('2000000');
  });

  it(
    'when an API v2 IOU payment from before delivered_amount existed is fetched, ' +
      'then the full non-partial amount is the IOU transfer',
    async () => {
      const { client } = await setup();
      const tx = await client.getTransaction(PAYMENT_HASH, noDeadline());
      expect(tx).toMatchObject({
        hash: PAYMENT_HASH,
        status: 'success',
        blockNumber: 348860n,
        timestamp: PAYMENT_TIME,
        from: PAYER,
        to: ISSUER,
      });
      expect(tx?.transfers).toEqual([
        { from: PAYER, to: ISSUER, asset: USD, amount: 1000n, source: 'delivered_amount', index: 0 },
      ]);
    },
  );

  it('when the same payment arrives in the API v1 shape, then the result is identical', async () => {
    // Composed: the real v2 body flattened the way API v1 answers (fields at top level, Amount beside DeliverMax).
    const v1 = { ...payment.tx_json, Amount: payment.tx_json.DeliverMax, meta: payment.meta, validated: true };
    const { client } = await setup([txCall(PAYMENT_HASH, v1)]);
    const { client: v2Client } = await setup();
    expect(await client.getTransaction(PAYMENT_HASH, noDeadline())).toEqual(
      await v2Client.getTransaction(PAYMENT_HASH, noDeadline()),
    );
  });

  it(
    'when a tec-result OfferCreate is fetched, then it is ' + 'failed without transfers; an unknown hash gives null',
    async () => {
      const { client } = await setup();
      // The recorded offer ended in tecUNFUNDED_OFFER: fee charged, nothing exchanged.
      expect(await client.getTransaction(OFFER_HASH, noDeadline())).toMatchObject({
        status: 'failed',
        from: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
        to: null,
        transfers: [],
        blockNumber: 6n,
      });
      expect(await client.getTransaction(UNKNOWN_HASH, noDeadline())).toBeNull();
      expect(await client.getTransaction('xyz', noDeadline())).toBeNull();
    },
  );

  it(
    'when account_tx holds payments, then direction follows Account vs Destination and the ' +
      'amount is what was delivered',
    async () => {
      const { client } = await setup();
      expect(await client.getAddressTransfers!(PARTIAL_TO, { limit: 10 }, noDeadline())).toEqual({
        transfers: [
          {
            txid: PARTIAL_HASH,
            timestamp: null,
            direction: 'in',
            counterparty: PARTIAL_FROM,
            asset: XRP,
            amount: 1000000n,
            destinationTag: null,
          },
        ],
        truncated: true,
      });
      expect(await client.getAddressTransfers!(ISSUER, { limit: 10 }, noDeadline())).toEqual({
        transfers: [
          {
            txid: PAYMENT_HASH,
            timestamp: PAYMENT_TIME,
            direction: 'in',
            counterparty: PAYER,
            asset: USD,
            amount: 1000n,
            destinationTag: null,
          },
        ],
        truncated: true,
      });
    },
  );

  it(
    'when the recorded account_tx page has only non-payments and a marker, ' +
      'then there are no transfers and it is truncated',
    async () => {
      const { client } = await setup();
      expect(await client.getAddressTransfers!(CHECKS, { limit: 2 }, noDeadline())).toEqual({
        transfers: [],
        truncated: true,
      });
    },
  );

  it(
    'when address facts are read, ' + 'then the balance is account_info and the transfer summary is the sampled page',
    async () => {
      const { client } = await setup();
      expect(await client.getAddressFacts(PAYER, { tokens: [], transferLimit: 5 }, noDeadline())).toEqual({
        address: PAYER,
        isContract: false,
        nativeBalance: 922913243n,
        tokenBalances: [],
        outgoingCount: 1,
        transferSummary: {
          firstSeen: null,
          lastSeen: PAYMENT_TIME,
          inboundCount: 0,
          inboundCounterparties: [],
          truncated: true,
        },
      });
    },
  );

  it(
    'when the account does not exist, then the facts are ' +
      'a zero balance without a transfer summary or a transactions request',
    async () => {
      const { client, server } = await setup();
      expect(await client.getAddressFacts(UNFUNDED, { tokens: [], transferLimit: 5 }, noDeadline())).toEqual({
        address: UNFUNDED,
        isContract: false,
        nativeBalance: 0n,
        tokenBalances: [],
        outgoingCount: 0,
        transferSummary: null,
      });
      expect(server.served).toHaveLength(1);
    },
  );

  it('when rippled answers 429 with Retry-After, then the client retries to the right result', async () => {
    const limited = rpc('account_info', { account: PAYER, ledger_index: 'validated' }, null, {
      times: 1,
      response: { status: 429, body: {}, headers: { 'retry-after': '0' } },
    });
    const { client } = await setup([limited, ...cassettes]);
    const facts = await client.getAddressFacts(PAYER, { tokens: [], transferLimit: 5 }, noDeadline());
    expect(facts.nativeBalance).toBe(922913243n);
    expect(client.metrics().retries).toBeGreaterThanOrEqual(1);
    expect(client.metrics().rateLimited).toBe(1);
  });

  it(
    'when rippled answers 503 on every attempt or reports ' + 'tooBusy, then the call ends in ChainUnavailableError',
    async () => {
      const { client } = await setup([
        txCall(PAYMENT_HASH, null, { response: { status: 503, body: 'Server is overloaded' } }),
        accountTxCall(PAYER, 5, rippledError('tooBusy', 'The server is too busy to help you now.')),
      ]);
      await expect(client.getTransaction(PAYMENT_HASH, noDeadline())).rejects.toBeInstanceOf(ChainUnavailableError);
      expect(client.metrics()).toMatchObject({ requests: 4, failures: 1 });
      await expect(client.getAddressTransfers!(PAYER, { limit: 5 }, noDeadline())).rejects.toBeInstanceOf(
        ChainUnavailableError,
      );
    },
  );

  it('when rippled never answers, then the call ends with the deadline signal reason promptly', async () => {
    const { client } = await setup([accountTxCall(PAYER, 5, null, { hang: true })]);
    const signal = AbortSignal.timeout(300);
    const started = Date.now();
    const error = await client.getAddressTransfers!(PAYER, { limit: 5 }, signal).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1_300);
    expect(error).toBe(signal.reason);
  });
});
