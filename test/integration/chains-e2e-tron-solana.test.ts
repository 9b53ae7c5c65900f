import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startReplayServer, type Cassette, type ReplayServer } from '../helpers/replay-server';
import { screenJob, startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * KYT and KYA on tron and solana through the whole service (API → Temporal → worker → engine → chain
 * client) against the strict replay server fed with the real recorded bodies in test/fixtures/chains
 * (see SOURCES.md). Address pages nobody recorded are composed from those real bodies, each marked
 * COMPOSED below with what it rests on. Any unrecorded request fails the test.
 *
 * The chain cache is shared by all test files: a finished transaction read by an earlier test comes
 * from Postgres, so the replay server may see fewer requests. Nothing here counts requests exactly.
 */
const read = (...p: string[]) =>
  JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', 'chains', ...p), 'utf8'));

// ---------------------------------------------------------------------------------------------------
// Tron: MetaMask/snap-tron-wallet's mainnet TronGrid items (construction as in chains/tron-client.test.ts).
const tronItem = (name: string) => read('tron', 'trongrid-v1', `account-transactions__${name}.json`);
const NATIVE = tronItem('native-transfer'); // WALLET → OTHER, 10000 sun
const NATIVE_NO_TS = tronItem('native-transfer-without-timestamp'); // TMh7… → WALLET, 1 sun
const TRC10 = tronItem('trc10-transfer'); // TEkr… → WALLET, token 1005119
const TRC20_CALL = tronItem('trc20-transfer'); // WALLET → OTHER, USDT (TriggerSmartContract)
const SWAP = tronItem('swap-transaction'); // OTHER calls a router, no call value
const FAILED = tronItem('failed-transaction'); // OTHER, OUT_OF_ENERGY
// WALLET's real TRC-20 page
const TRC20_PAGE = read('tron', 'trongrid-v1', 'account-trc20-transactions__contract-info.json');

const WALLET = 'TGJn1wnUYHJbvN88cynZbsAz2EMeZq73yx'; // 41458437…
const OTHER = 'TEFik7dGm6r5Y1Af9mGwnELuJLa1jXDDUB'; // 412efffc…
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
// WALLET's four recorded sources: a TRX sender, a TRC-10 sender and two TRC-20 senders.
const TRX_SENDER = 'TMh7tFe4TWSbT587YMaRYZ9NQUwWi1LbeM'; // owner of NATIVE_NO_TS
const TRC10_SENDER = 'TEkrCfpcY8qGzRdSackqNWd5G5MUvAT1cX'; // owner of TRC10
const USDDOLD_SENDER = 'TMxxHG5PRVakKwNCvTWDb73gPwXvkZAhpm'; // TRC20_PAGE.data[1].from
const USDT_SENDER = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE'; // TRC20_PAGE.data[2].from
const WALLET_SOURCES = [TRX_SENDER, TRC10_SENDER, USDDOLD_SENDER, USDT_SENDER];

/**
 * COMPOSED (as in tron-client.test.ts): no recorded /wallet/gettransactionbyid body; the real TronGrid item reduced to
 * the FullNode's fields.
 */
const fullNodeTx = (tx: any) => ({
  ret: tx.ret.map((r: any) => ({ contractRet: r.contractRet })),
  signature: tx.signature,
  txID: tx.txID,
  raw_data: tx.raw_data,
  raw_data_hex: tx.raw_data_hex,
});
/**
 * COMPOSED (as in tron-client.test.ts): the FullNode's info for a non-contract transaction, from the same item's fee,
 * block and bandwidth fields.
 */
const infoOf = (tx: any, receipt: object) => ({
  id: tx.txID,
  ...(tx.ret[0].fee ? { fee: tx.ret[0].fee } : {}),
  blockNumber: tx.blockNumber,
  blockTimeStamp: tx.block_timestamp,
  receipt,
});
/** COMPOSED: a TronGrid v1 envelope around real `data[]` items (the fixtures hold single items only). */
const envelope = (data: unknown[]) => ({ data, success: true, meta: { at: 1774455500000, page_size: data.length } });

const tronGet = (
  p: string,
  query: Record<string, string> | undefined,
  body: unknown,
  extra: Partial<Cassette> = {},
): Cassette => ({ request: { method: 'GET', path: `/tron${p}`, query }, response: { body }, ...extra });
/** Both transfer endpoints of one address at one page size (the facts read 25, the crawl 50). */
const tronPages = (
  address: string,
  limit: number,
  native: unknown,
  trc20: unknown,
  nativeExtra: Partial<Cassette> = {},
) => [
  tronGet(
    `/v1/accounts/${address}/transactions`,
    { limit: String(limit), order_by: 'block_timestamp,desc' },
    native,
    nativeExtra,
  ),
  tronGet(`/v1/accounts/${address}/transactions/trc20`, { limit: String(limit) }, trc20),
];
// The FullNode's POST bodies are not matched (not JSON-RPC), so the path alone selects these answers.
const tronTx = [
  { request: { method: 'POST', path: '/tron/wallet/gettransactionbyid' }, response: { body: fullNodeTx(NATIVE) } },
  {
    request: { method: 'POST', path: '/tron/wallet/gettransactioninfobyid' },
    response: { body: infoOf(NATIVE, { net_fee: NATIVE.net_fee }) },
  },
] satisfies Cassette[];

// WALLET's transfers: the real items, newest first as order_by asks, and its real TRC-20 page.
const WALLET_NATIVE = envelope([NATIVE_NO_TS, TRC10, TRC20_CALL, NATIVE]);
// COMPOSED (as in tron-client.test.ts): OTHER's transfers from the recorded items it takes part in.
const OTHER_NATIVE = envelope([FAILED, SWAP, NATIVE]);
const OTHER_TRC20 = envelope([TRC20_PAGE.data[0]]);
/**
 * COMPOSED: nothing was recorded for WALLET's four sources. Each page holds only the real item that links
 * it to WALLET (an outflow for that source), so the crawl reaches them at hop 1 and finds no further source.
 */
const sourcePages = (limit: number) => [
  ...tronPages(TRX_SENDER, limit, envelope([NATIVE_NO_TS]), envelope([])),
  ...tronPages(TRC10_SENDER, limit, envelope([TRC10]), envelope([])),
  ...tronPages(USDDOLD_SENDER, limit, envelope([]), envelope([TRC20_PAGE.data[1]])),
  ...tronPages(USDT_SENDER, limit, envelope([]), envelope([TRC20_PAGE.data[2]])),
];
/**
 * COMPOSED, with SYNTHETIC values (as in tron-client.test.ts): no recorded /v1/accounts body exists; shape from
 * tronprotocol/tron-grid's README.
 */
const WALLET_ACCOUNT = {
  address: '41458437be39f3a8bfdbfee7bef93e2c5f632ceff4',
  balance: 4_196_409_173,
  create_time: 1_755_000_000_000,
  trc20: [{ [USDT]: '1057519' }],
  assetV2: [{ key: '1005119', value: 88888888 }],
};
/**
 * COMPOSED: no /v1/accounts body is recorded for OTHER; only its (hex) address is stated, no balance is claimed (it
 * reads as 0 TRX).
 */
const OTHER_ACCOUNT = { address: '412efffc7686e54ab669a1cdb1e2cc17cf4b4eca96' };

/**
 * KYT of NATIVE: the tx, the beneficiary's (OTHER) facts, then the sender (WALLET) upstream and OTHER
 * downstream, 2 hops.
 */
const tronKytCassettes = (walletCrawlPage: Partial<Cassette> = {}): Cassette[] => [
  ...tronTx,
  tronGet(`/v1/accounts/${OTHER}`, undefined, envelope([OTHER_ACCOUNT])),
  ...tronPages(OTHER, 25, OTHER_NATIVE, OTHER_TRC20),
  ...tronPages(OTHER, 50, OTHER_NATIVE, OTHER_TRC20),
  ...tronPages(WALLET, 50, WALLET_NATIVE, TRC20_PAGE, walletCrawlPage),
  ...sourcePages(50),
];
/** KYA of WALLET: its facts, then its sources and destinations, up to 3 hops. */
const tronKyaCassettes: Cassette[] = [
  tronGet(`/v1/accounts/${WALLET}`, undefined, envelope([WALLET_ACCOUNT])),
  ...tronPages(WALLET, 25, WALLET_NATIVE, TRC20_PAGE),
  ...tronPages(WALLET, 50, WALLET_NATIVE, TRC20_PAGE),
  ...tronPages(OTHER, 50, OTHER_NATIVE, OTHER_TRC20),
  ...sourcePages(50),
];

// ---------------------------------------------------------------------------------------------------
// Solana: bmresearch/Solnet's recorded JSON-RPC pairs (construction as in chains/solana-client.test.ts).
const solFixture = (name: string) => read('solana', 'json-rpc', `${name}.json`);
const rpc = (method: string, params: unknown, body: unknown): Cassette => ({
  request: { method: 'POST', path: '/solana', rpc: { method, params } },
  response: { body },
});
const result = (value: unknown) => ({ jsonrpc: '2.0', id: 0, result: value });
const VOTE = solFixture('GetTransactionResponse').result;
const VOTE_SIG = VOTE.transaction.signatures[0] as string;
const FEE_PAYER = VOTE.transaction.message.accountKeys[0] as string; // EvVrzsxoj118sxxSTrcnc9u3fRdQfCc7d4gRzzX6TSqj
/** Served exactly as recorded: the client must send the recorded method and params. */
const recordedVoteTx = rpc(
  solFixture('GetTransactionRequest').method,
  solFixture('GetTransactionRequest').params,
  solFixture('GetTransactionResponse'),
);
/**
 * COMPOSED (as in solana-client.test.ts): a getSignaturesForAddress item from the recorded transaction's own signature,
 * slot, time and error.
 */
const signatureItem = (tx: any) => ({
  signature: tx.transaction.signatures[0],
  slot: tx.slot,
  blockTime: tx.blockTime,
  err: tx.meta.err,
  memo: null,
  confirmationStatus: 'finalized',
});
/**
 * COMPOSED: no transactions or balance were recorded for the fee payer. Its signature page holds the one recorded
 * transaction it signed (the vote), at both page sizes (facts 25, crawl 50); its balance is that vote's
 * recorded post-balance at the vote's slot.
 */
const feePayerCassettes: Cassette[] = [
  rpc('getBalance', [FEE_PAYER], result({ context: { slot: VOTE.slot }, value: VOTE.meta.postBalances[0] })),
  rpc('getSignaturesForAddress', [FEE_PAYER, { limit: 25 }], result([signatureItem(VOTE)])),
  rpc('getSignaturesForAddress', [FEE_PAYER, { limit: 50 }], result([signatureItem(VOTE)])),
  recordedVoteTx,
];

describe('screening through the tron and solana adapters against recorded responses', () => {
  let stack: TestStack;
  let server: ReplayServer;

  async function withServer(list: Cassette[]) {
    server = await startReplayServer(list);
    stack = await startTestStack({
      env: { TRON_API_URL: `${server.url}/tron`, SOLANA_RPC_URL: `${server.url}/solana` },
    });
  }
  afterEach(async () => {
    expect(server.misses).toEqual([]);
    await stack.stop();
    await server.close();
  });

  const screen = (body: Record<string, unknown>) => screenJob(stack, body);
  const nodesOf = (full: any) => full.graph.nodes.map((n: any) => ({ address: n.address, hop: n.hop }));
  const served = (p: string) => expect(server.served).toEqual(expect.arrayContaining([expect.stringContaining(p)]));

  test(
    'when a tron TRX transfer is screened (KYT), then the recipient is the subject and the crawl reaches the ' +
      "sender's four recorded sources at hop 1",
    async () => {
      await withServer(tronKytCassettes());
      const { polled, full } = await screen({ chain: 'tron', txid: NATIVE.txID });
      expect(polled.status).toBe('completed');
      expect(polled.response.target_summary.address).toBe(OTHER);
      expect(full.transaction).toMatchObject({
        hash: NATIVE.txID,
        status: 'success',
        block_number: '75418399',
        timestamp: new Date(NATIVE.block_timestamp).toISOString(),
      });
      // Hop 0: the parties; hop 1: where WALLET's money came from (OTHER has no recorded outflow to follow).
      expect(nodesOf(full)).toEqual(
        expect.arrayContaining([
          { address: WALLET, hop: 0 },
          { address: OTHER, hop: 0 },
          ...WALLET_SOURCES.map((address) => ({ address, hop: 1 })),
        ]),
      );
      expect(
        full.graph.nodes
          .filter((n: any) => n.hop >= 1)
          .map((n: any) => n.address)
          .sort(),
      ).toEqual([...WALLET_SOURCES].sort());
      expect(full.graph.nodes.find((n: any) => n.address === USDT_SENDER)).toMatchObject({ role: 'hop 1 source' });
      expect(full.crawl).toMatchObject({ ran: true, complete: true, depth_reached: 2 });
      // Every hop-1 source was expanded (its page read), and OTHER's downstream page too.
      for (const address of [...WALLET_SOURCES, OTHER]) served(`/tron/v1/accounts/${address}/transactions?limit=50`);
    },
  );

  test(
    'when a tron wallet is screened (KYA), then its recorded ' + 'sources and its destination are reached at hop 1',
    async () => {
      await withServer(tronKyaCassettes);
      const { polled, full } = await screen({ chain: 'tron', address: WALLET });
      expect(polled.status).toBe('completed');
      expect(polled.response.target_summary.address).toBe(WALLET);
      expect(full.transaction).toBeNull();
      expect(nodesOf(full)).toEqual(
        expect.arrayContaining([
          { address: WALLET, hop: 0 },
          ...[...WALLET_SOURCES, OTHER].map((address) => ({ address, hop: 1 })),
        ]),
      );
      expect(
        full.graph.nodes
          .filter((n: any) => n.hop >= 1)
          .map((n: any) => n.address)
          .sort(),
      ).toEqual([...WALLET_SOURCES, OTHER].sort());
      expect(full.graph.nodes.find((n: any) => n.address === OTHER)).toMatchObject({ role: 'hop 1 destination' });
      expect(full.crawl).toMatchObject({ ran: true, complete: true, depth_reached: 2 });
      for (const address of [...WALLET_SOURCES, OTHER]) served(`/tron/v1/accounts/${address}/transactions?limit=50`);
    },
  );

  test(
    'when a tron wallet is screened (KYA), then its TRX balance and its TRX inflows carry ' +
      'USD values from the TRX daily closes',
    async () => {
      await withServer(tronKyaCassettes);
      const { full } = await screen({ chain: 'tron', address: WALLET });
      // Valued now: the last shipped close (2025-11-19, 0.286605), which the pricing entry dates.
      expect(full.target_summary.balances).toContainEqual({ asset: 'TRX', amount: 4196.409173, usd: 1202.71 });
      expect(full.pricing).toContainEqual(
        expect.objectContaining({ asset: 'TRX', usd_price: 0.286605, as_of: '2025-11-20T00:00:00.000Z' }),
      );
      expect(full.unpriced_assets).not.toContain('TRX');
      // The 1-sun TRX inflow is priced (worth 0.00 $, not unknown).
      expect(full.graph.edges.find((e: any) => e.from === TRX_SENDER && e.to === WALLET)).toMatchObject({
        asset: 'TRX',
        usd: 0,
      });
    },
  );

  test(
    'when a tron TRX transfer is screened (KYT), then it is valued at the TRX close at or before its block ' +
      'time, not at one constant',
    async () => {
      await withServer(tronKytCassettes());
      const { full } = await screen({ chain: 'tron', txid: NATIVE.txID });
      // Block 2025-09-03T15:52:27Z takes the close of 2025-09-02 (0.338015), valid from 2025-09-03T00:00Z.
      expect(full.pricing).toEqual([
        {
          asset: 'TRX',
          usd_price: 0.338015,
          as_of: '2025-09-03T00:00:00.000Z',
          source: expect.stringContaining('TRX-USD daily close'),
          valued_at: new Date(NATIVE.block_timestamp).toISOString(),
        },
      ]);
      expect(full.unpriced_assets).toEqual([]);
    },
  );

  test(
    "when the sender's tron page answers after the crawl's share of crawlTimeout, " +
      'then the job completes within crawlTimeout plus a margin, marked partial',
    async () => {
      // crawlTimeout 2000 gives the crawl 1700 ms; WALLET's crawl page (limit 50, not the facts' 25)
      // answers after 2500.
      await withServer(tronKytCassettes({ delayMs: 2500 }));
      const { polled, full, ms } = await screen({ chain: 'tron', txid: NATIVE.txID, crawlTimeout: 2000 });
      expect(polled.status).toBe('completed');
      expect(polled.response.target_summary.address).toBe(OTHER);
      expect(full.crawl).toMatchObject({ ran: true, complete: false, truncated: expect.arrayContaining(['deadline']) });
      expect(polled.response.risk_reason).toContain('unknown, not clean');
      expect(ms).toBeLessThan(2000 + 3000);
    },
  );

  test(
    'when a solana vote transaction is screened (KYT), then its fee payer is the subject and the ' +
      'crawl finds no value moved',
    async () => {
      await withServer(feePayerCassettes);
      const { polled, full } = await screen({ chain: 'solana', txid: VOTE_SIG });
      expect(polled.status).toBe('completed');
      expect(polled.response.target_summary.address).toBe(FEE_PAYER);
      expect(full.transaction).toMatchObject({
        hash: VOTE_SIG,
        status: 'success',
        block_number: '79700345',
        timestamp: new Date(1622655364 * 1000).toISOString(),
      });
      // The recorded vote moves no value (fee only), so the fee payer's page leads nowhere: no node beyond hop 0.
      expect(nodesOf(full)).toEqual([{ address: FEE_PAYER, hop: 0 }]);
      expect(full.crawl).toMatchObject({ ran: true, complete: true });
      served(`rpc:getSignaturesForAddress ["${FEE_PAYER}",{"limit":50}]`);
    },
  );

  test(
    'when the solana fee payer is screened (KYA), then its balance and transfers come from the node and the ' +
      'crawl expands it both ways',
    async () => {
      await withServer(feePayerCassettes);
      const { polled, full } = await screen({ chain: 'solana', address: FEE_PAYER });
      expect(polled.status).toBe('completed');
      expect(polled.response.target_summary.address).toBe(FEE_PAYER);
      expect(polled.response.target_summary.balances).toEqual([
        expect.objectContaining({ asset: 'SOL', amount: 395.38357338 }),
      ]);
      expect(full.transaction).toBeNull();
      expect(nodesOf(full)).toEqual([{ address: FEE_PAYER, hop: 0 }]);
      expect(full.crawl).toMatchObject({ ran: true, complete: true });
      expect(full.performance.crawl_requests).toBe(1); // one page of the target serves both directions
      served(`rpc:getSignaturesForAddress ["${FEE_PAYER}",{"limit":50}]`);
    },
  );
});
