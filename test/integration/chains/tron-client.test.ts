import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ChainUnavailableError,
  InvalidAddressError,
  type AddressTransfer,
} from '../../../src/screening/chains/chain-client';
import { tronBase58ToHex, tronHexToBase58 } from '../../../src/screening/chains/tron-address';
import { createTronClient } from '../../../src/screening/chains/tron-client';
import { startReplayServer, type Cassette, type ReplayServer } from '../../helpers/replay-server';

/** Real TronGrid/FullNode bodies (MetaMask/snap-tron-wallet, see test/fixtures/chains/SOURCES.md). */
const fixture = (name: string) => JSON.parse(readFileSync(join(__dirname, '../../fixtures/chains/tron', name), 'utf8'));
const item = (name: string) => fixture(`trongrid-v1/account-transactions__${name}.json`);
const NATIVE = item('native-transfer');
const NATIVE_NO_TS = item('native-transfer-without-timestamp');
const TRC10 = item('trc10-transfer');
const TRC20_CALL = item('trc20-transfer');
const SWAP = item('swap-transaction');
const FAILED = item('failed-transaction');
const TRC20_PAGE = fixture('trongrid-v1/account-trc20-transactions__contract-info.json');
const SWAP_INFO = fixture('fullnode-http/gettransactioninfobyid__swap-transaction.json');

// The fixtures' two wallets and the USDT contract, as their hex (raw_data) and base58 (TRC-20 endpoint) spellings.
const WALLET = 'TGJn1wnUYHJbvN88cynZbsAz2EMeZq73yx'; // 41458437…
const OTHER = 'TEFik7dGm6r5Y1Af9mGwnELuJLa1jXDDUB'; // 412efffc…
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const TRX = { kind: 'native', symbol: 'TRX', decimals: 6 } as const;

/**
 * COMPOSED: no recorded /wallet/gettransactionbyid body exists, so it is the real TronGrid item reduced to
 * the FullNode's fields (TronGrid adds fee, block and energy fields; the FullNode's ret holds contractRet only).
 */
const fullNodeTx = (tx: any) => ({
  ret: tx.ret.map((r: any) => ({ contractRet: r.contractRet })),
  signature: tx.signature,
  txID: tx.txID,
  raw_data: tx.raw_data,
  raw_data_hex: tx.raw_data_hex,
});
/**
 * COMPOSED: the FullNode's info for a non-contract transaction, from the same item's fee, block and bandwidth fields.
 */
const infoOf = (tx: any, receipt: object) => ({
  id: tx.txID,
  ...(tx.ret[0].fee ? { fee: tx.ret[0].fee } : {}),
  blockNumber: tx.blockNumber,
  blockTimeStamp: tx.block_timestamp,
  receipt,
});
/** COMPOSED: a TronGrid v1 envelope around real `data[]` items (the fixtures hold single items only). */
const envelope = (data: unknown[], fingerprint?: string) => ({
  data,
  success: true,
  meta: { at: 1774455500000, page_size: data.length, ...(fingerprint ? { fingerprint } : {}) },
});

const post = (path: string, body: unknown, extra: Partial<Cassette> = {}): Cassette => ({
  request: { method: 'POST', path: `/tron${path}` },
  response: { body },
  times: 1,
  ...extra,
});
const get = (path: string, query: Record<string, string> | undefined, body: unknown): Cassette => ({
  request: { method: 'GET', path: `/tron${path}`, query },
  response: { body },
});
const txCassettes = (tx: unknown, info: unknown) => [
  post('/wallet/gettransactionbyid', tx),
  post('/wallet/gettransactioninfobyid', info),
];
const pages = (address: string, limit: number, native: unknown, trc20: unknown) => [
  get(`/v1/accounts/${address}/transactions`, { limit: String(limit), order_by: 'block_timestamp,desc' }, native),
  get(`/v1/accounts/${address}/transactions/trc20`, { limit: String(limit) }, trc20),
];
const noDeadline = () => new AbortController().signal;

let server: ReplayServer | undefined;
const sent: { url: string; headers: Record<string, string>; body?: unknown }[] = [];
/** Records what the client put on the wire (the replay server does not match non-RPC POST bodies). */
const recordingFetch: typeof fetch = async (input, init) => {
  sent.push({
    url: String(input),
    headers: init?.headers as Record<string, string>,
    body: init?.body ? JSON.parse(String(init.body)) : undefined,
  });
  return fetch(input, init);
};
async function clientFor(cassettes: Cassette[], extra: { apiKey?: string; requestTimeoutMs?: number } = {}) {
  server = await startReplayServer(cassettes);
  sent.length = 0;
  return createTronClient({
    apiUrl: `${server.url}/tron`,
    requestTimeoutMs: extra.requestTimeoutMs ?? 2_000,
    ratePerSecond: 1_000,
    fetch: recordingFetch,
    apiKey: extra.apiKey,
  });
}
afterEach(async () => {
  expect(server?.misses).toEqual([]);
  await server?.close();
  server = undefined;
});

describe('Tron client against recorded TronGrid and FullNode bodies', () => {
  test('when fixture addresses are given in hex or base58, then both normalise to base58 and round-trip', async () => {
    const client = await clientFor([]);
    const pairs = [
      [NATIVE.raw_data.contract[0].parameter.value.owner_address, WALLET],
      [NATIVE.raw_data.contract[0].parameter.value.to_address, OTHER],
      [TRC20_CALL.raw_data.contract[0].parameter.value.contract_address, USDT],
    ];
    for (const [hex, base58] of pairs) {
      expect(client.normalizeAddress(hex)).toBe(base58);
      expect(client.normalizeAddress(base58)).toBe(base58);
      expect(tronBase58ToHex(base58)).toBe(hex);
      expect(tronHexToBase58(hex)).toBe(base58);
    }
  });

  test(
    'when an address has a bad checksum, wrong length, ' + 'wrong version or is garbage, then InvalidAddressError',
    async () => {
      const client = await clientFor([]);
      const bad = [
        `${WALLET.slice(0, -1)}y`, // checksum
        WALLET.slice(0, -1), // length
        `${WALLET}1`,
        '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', // valid base58check, Bitcoin's version byte
        '42458437be39f3a8bfdbfee7bef93e2c5f632ceff4', // hex with the wrong prefix
        '41458437be39f3a8bfdbfee7bef93e2c5f632ceff', // hex, one nibble short
        '0x458437be39f3a8bfdbfee7bef93e2c5f632ceff4', // an EVM address
        'TGJn1wnUYHJbvN88cynZbsAz2EMeZq73y0', // 0 is not base58
        '',
        'not an address',
      ];
      for (const raw of bad) expect(() => client.normalizeAddress(raw)).toThrow(InvalidAddressError);
      await expect(client.getAddressFacts('garbage', { tokens: [], transferLimit: 5 }, noDeadline())).rejects.toThrow(
        InvalidAddressError,
      );
    },
  );

  test(
    'when a TRX transfer is fetched, then it is one ' + 'native transfer with base58 parties, block and time',
    async () => {
      const client = await clientFor(txCassettes(fullNodeTx(NATIVE), infoOf(NATIVE, { net_fee: NATIVE.net_fee })), {
        apiKey: 'k-123',
      });
      const tx = await client.getTransaction(NATIVE.txID, noDeadline());
      expect(tx).toEqual({
        chain: 'tron',
        hash: NATIVE.txID,
        status: 'success',
        blockNumber: 75418399n,
        timestamp: 1756914747,
        from: WALLET,
        to: OTHER,
        transfers: [{ from: WALLET, to: OTHER, asset: TRX, amount: 10000n, source: 'native', index: 0 }],
      });
      expect(sent.map((s) => s.body)).toEqual(
        expect.arrayContaining([{ value: NATIVE.txID, visible: true }, { value: NATIVE.txID }]),
      );
      expect(sent.every((s) => s.headers['TRON-PRO-API-KEY'] === 'k-123')).toBe(true);
    },
  );

  test('when a TRC-10 transfer is fetched, then its asset is the trc10 token id with the recorded amount', async () => {
    const client = await clientFor(txCassettes(fullNodeTx(TRC10), infoOf(TRC10, { net_usage: TRC10.net_usage })));
    const tx = await client.getTransaction(TRC10.txID, noDeadline());
    expect(tx?.transfers).toEqual([
      {
        from: 'TEkrCfpcY8qGzRdSackqNWd5G5MUvAT1cX',
        to: WALLET,
        asset: { kind: 'token', standard: 'trc10', contract: '1005119', symbol: null, decimals: null },
        amount: 88888888n,
        source: 'native',
        index: 0,
      },
    ]);
  });

  test(
    'when a swap is fetched, then TRC-20 Transfer logs and internal ' +
      'TRX calls become transfers with base58 addresses',
    async () => {
      const client = await clientFor(txCassettes(fullNodeTx(SWAP), SWAP_INFO));
      const tx = (await client.getTransaction(SWAP.txID, noDeadline()))!;
      expect(tx).toMatchObject({
        status: 'success',
        blockNumber: 77641497n,
        timestamp: 1763586027,
        from: OTHER,
        to: 'TYWc7X6YHpp2YrFXwLRsofdiL78JRvDd6u',
      });
      const logs = tx.transfers.filter((t) => t.source === 'log');
      // Eight ddf252ad logs with three topics in the recorded info; the last pays 0x2c8061 USDT out of the router.
      expect(logs).toHaveLength(8);
      expect(logs.at(-1)).toEqual({
        from: 'TYWc7X6YHpp2YrFXwLRsofdiL78JRvDd6u',
        to: 'TSjRgk9kUDiAykRVC3EodS3U8cK8gRHkPQ',
        asset: { kind: 'token', standard: 'trc20', contract: USDT, symbol: null, decimals: null },
        amount: 2916449n,
        source: 'log',
        index: 20,
      });
      // A transfer to the zero address is a burn: no recipient.
      expect(logs.filter((t) => t.to === null)).toHaveLength(1);
      expect(tx.transfers.filter((t) => t.source === 'internal').map((t) => t.amount)).toEqual([
        87500n,
        9912500n,
        9912500n,
      ]);
    },
  );

  test('when the transaction ran out of energy, then it is failed and moved nothing', async () => {
    const info = {
      ...infoOf(FAILED, {
        energy_fee: FAILED.energy_fee,
        energy_usage_total: FAILED.energy_usage_total,
        net_fee: FAILED.net_fee,
        result: 'OUT_OF_ENERGY',
      }),
      result: 'FAILED',
    };
    const client = await clientFor(txCassettes(fullNodeTx(FAILED), info));
    expect(await client.getTransaction(FAILED.txID, noDeadline())).toMatchObject({
      status: 'failed',
      blockNumber: 77641671n,
      transfers: [],
    });
  });

  test('when the id is unknown, then null; when it is malformed, then null without a request', async () => {
    const client = await clientFor(txCassettes({}, {})); // the FullNode answers {} for both calls
    expect(await client.getTransaction('ab'.repeat(32), noDeadline())).toBeNull();
    expect(await client.getTransaction('not-a-txid', noDeadline())).toBeNull();
    expect(server!.served).toHaveLength(2);
  });

  const WALLET_NATIVE = envelope([NATIVE_NO_TS, TRC10, TRC20_CALL, NATIVE]); // newest first, as order_by asks
  const expectedWallet: AddressTransfer[] = [
    {
      txid: NATIVE_NO_TS.txID,
      timestamp: 1774455465,
      direction: 'in',
      counterparty: 'TMh7tFe4TWSbT587YMaRYZ9NQUwWi1LbeM',
      asset: TRX,
      amount: 1n,
    },
    {
      txid: TRC10.txID,
      timestamp: 1769119311,
      direction: 'in',
      counterparty: 'TEkrCfpcY8qGzRdSackqNWd5G5MUvAT1cX',
      asset: { kind: 'token', standard: 'trc10', contract: '1005119', symbol: null, decimals: null },
      amount: 88888888n,
    },
    {
      txid: TRC20_CALL.txID,
      timestamp: 1757590707,
      direction: 'out',
      counterparty: OTHER,
      asset: { kind: 'token', standard: 'trc20', contract: USDT, symbol: 'USDT', decimals: 6 },
      amount: 10000n,
    },
    { txid: NATIVE.txID, timestamp: 1756914747, direction: 'out', counterparty: OTHER, asset: TRX, amount: 10000n },
    {
      txid: 'beb6312754bed1de71c4087d8f0ab078be4f8b7d25b97a6fed644a1e274c51dc',
      timestamp: 1756119357,
      direction: 'in',
      counterparty: 'TMxxHG5PRVakKwNCvTWDb73gPwXvkZAhpm',
      asset: {
        kind: 'token',
        standard: 'trc20',
        contract: 'TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn',
        symbol: 'USDDOLD',
        decimals: 18,
      },
      amount: 1052192663968474700n,
    },
    {
      txid: '036fd19d19626c2be4010619a365ca8d1e15f6b615585170500c7b25f1932686',
      timestamp: 1755862641,
      direction: 'in',
      counterparty: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
      asset: { kind: 'token', standard: 'trc20', contract: USDT, symbol: 'USDT', decimals: 6 },
      amount: 1067519n,
    },
  ];

  test(
    'when both transfer endpoints fit in one page, then ' + 'native, TRC-10 and TRC-20 movements merge newest first',
    async () => {
      const client = await clientFor(pages(WALLET, 20, WALLET_NATIVE, TRC20_PAGE));
      // The hex spelling is accepted and the requests use base58.
      expect(
        await client.getAddressTransfers!('41458437be39f3a8bfdbfee7bef93e2c5f632ceff4', { limit: 20 }, noDeadline()),
      ).toEqual({ transfers: expectedWallet, truncated: false });
    },
  );

  test(
    'when the native page has a fingerprint, then the ' + 'result is truncated and ends where that page ends',
    async () => {
      // COMPOSED: the first three items as a cut page; the fingerprint is a placeholder cursor.
      const client = await clientFor(
        pages(WALLET, 3, envelope([NATIVE_NO_TS, TRC10, TRC20_CALL], 'placeholder-cursor'), TRC20_PAGE),
      );
      const result = await client.getAddressTransfers!(WALLET, { limit: 3 }, noDeadline());
      // The two older TRC-20 transfers lie beyond the cut native page, so they are left for the next page.
      expect(result).toEqual({ transfers: expectedWallet.slice(0, 3), truncated: true });
    },
  );

  test(
    'when the transfers hold a failed call and a swap without ' + 'call value, then only real value movements remain',
    async () => {
      const client = await clientFor(
        pages(OTHER, 10, envelope([FAILED, SWAP, NATIVE]), envelope([TRC20_PAGE.data[0]])),
      );
      const { transfers } = await client.getAddressTransfers!(OTHER, { limit: 10 }, noDeadline());
      expect(transfers.map((t) => [t.txid, t.direction, t.counterparty, t.amount])).toEqual([
        [TRC20_CALL.txID, 'in', WALLET, 10000n],
        [NATIVE.txID, 'in', WALLET, 10000n],
      ]);
    },
  );

  test(
    'when the account is looked up, ' + 'then balances come from /v1/accounts and transfers from both pages',
    async () => {
      // COMPOSED, with SYNTHETIC values: no recorded /v1/accounts body exists; the shape follows
      // tronprotocol/tron-grid's README.
      const account = {
        address: '41458437be39f3a8bfdbfee7bef93e2c5f632ceff4',
        balance: 4_196_409_173,
        create_time: 1_755_000_000_000,
        trc20: [{ [USDT]: '1057519' }],
        assetV2: [{ key: '1005119', value: 88888888 }],
      };
      const client = await clientFor([
        get(`/v1/accounts/${WALLET}`, undefined, envelope([account])),
        ...pages(WALLET, 20, WALLET_NATIVE, TRC20_PAGE),
      ]);
      const facts = await client.getAddressFacts(
        WALLET,
        { tokens: [USDT, '1005119', 'TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn'], transferLimit: 20 },
        noDeadline(),
      );
      expect(facts).toMatchObject({
        address: WALLET,
        isContract: false,
        nativeBalance: 4_196_409_173n,
        outgoingCount: 2,
      });
      expect(facts.tokenBalances.map((b) => [b.asset.kind === 'token' && b.asset.contract, b.amount])).toEqual([
        [USDT, 1057519n],
        ['1005119', 88888888n],
        ['TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn', 0n],
      ]);
      expect(facts.transferSummary).toMatchObject({
        firstSeen: 1_755_000_000,
        lastSeen: 1774455465,
        inboundCount: 4,
        truncated: false,
      });
      expect(facts.transferSummary?.inboundCounterparties.map((c) => c.address)).toEqual([
        'TMh7tFe4TWSbT587YMaRYZ9NQUwWi1LbeM',
        'TEkrCfpcY8qGzRdSackqNWd5G5MUvAT1cX',
        'TMxxHG5PRVakKwNCvTWDb73gPwXvkZAhpm',
        'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
      ]);
    },
  );

  test('when the account was never activated, then balances are zero and it has no transfers', async () => {
    // COMPOSED: TronGrid's answer for an inactive address is an empty data array.
    const client = await clientFor([
      get(`/v1/accounts/${OTHER}`, undefined, envelope([])),
      ...pages(OTHER, 5, envelope([]), envelope([])),
    ]);
    const facts = await client.getAddressFacts(OTHER, { tokens: [USDT], transferLimit: 5 }, noDeadline());
    expect(facts).toMatchObject({
      nativeBalance: 0n,
      isContract: false,
      outgoingCount: 0,
      tokenBalances: [{ amount: 0n }],
    });
    expect(facts.transferSummary).toEqual({
      firstSeen: null,
      lastSeen: null,
      inboundCount: 0,
      inboundCounterparties: [],
      truncated: false,
    });
  });
});

describe('Tron client under provider faults', () => {
  test('when TronGrid answers 429 with Retry-After once, then the call is retried and succeeds', async () => {
    const client = await clientFor([
      post(
        '/wallet/gettransactionbyid',
        { Error: 'rate limited' },
        { response: { status: 429, body: { Error: 'rate limited' }, headers: { 'retry-after': '0.05' } } },
      ),
      ...txCassettes(fullNodeTx(NATIVE), infoOf(NATIVE, { net_fee: NATIVE.net_fee })),
    ]);
    expect((await client.getTransaction(NATIVE.txID, noDeadline()))?.transfers[0]?.amount).toBe(10000n);
    expect(client.metrics()).toMatchObject({ retries: 1, rateLimited: 1, failures: 0 });
  });

  test('when every attempt answers 503, then the call ends in ChainUnavailableError', async () => {
    const client = await clientFor(
      pages(WALLET, 5, {}, {}).map((c) => ({ ...c, response: { status: 503, body: { error: 'down' } } })),
    );
    await expect(client.getAddressTransfers!(WALLET, { limit: 5 }, noDeadline())).rejects.toThrow(
      ChainUnavailableError,
    );
    expect(client.metrics().failures).toBeGreaterThanOrEqual(1);
  });

  test('when the node never answers, then the crawl deadline ends the call promptly', async () => {
    const client = await clientFor(
      txCassettes({}, {}).map((c) => ({ ...c, hang: true })),
      { requestTimeoutMs: 30_000 },
    );
    const started = Date.now();
    await expect(client.getTransaction(NATIVE.txID, AbortSignal.timeout(300))).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect(Date.now() - started).toBeLessThan(1_300);
  });
});
