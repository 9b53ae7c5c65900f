import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startReplayServer, type Cassette, type ReplayServer } from '../helpers/replay-server';
import { screenJob, startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * KYT and KYA through the whole service (API → Temporal → worker → engine → chain client) against the
 * strict replay server fed with the real recorded responses in test/fixtures/chains (address pages are
 * composed from real tx bodies, as the adapter tests explain). Any unrecorded request fails the test.
 */
const read = (...p: string[]) =>
  JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', 'chains', ...p), 'utf8'));

const TX_IN = '19c6cd6b7b8a91e1a63d759eedd2818877a624771d38e00c3ffcedfdd09afc50';
const RECIPIENT = '2NEhVzd2Lom5g7ZF5K1qYrgZLpXecniqHcE';
const SENDER = 'tb1q2ajf7llsxvff7r0fpm42tmd5nz43cr8mg85f3788rm4cy7uwajdsusr2mg';
const txIn = read('bitcoin', 'esplora', `tx_${TX_IN}.json`);
const utxos = read('bitcoin', 'esplora', 'address_2NEhVzd2Lom5g7ZF5K1qYrgZLpXecniqHcE_utxo.json');
const esplora = (p: string, body: unknown, extra: Partial<Cassette> = {}): Cassette => ({
  request: { method: 'GET', path: `/bitcoin${p}` },
  response: { body },
  ...extra,
});
const bitcoinCassettes = (senderPage: Partial<Cassette> = {}): Cassette[] => [
  esplora(`/tx/${TX_IN}`, txIn),
  esplora(`/address/${RECIPIENT}`, {
    address: RECIPIENT,
    chain_stats: {
      funded_txo_count: 1,
      funded_txo_sum: utxos[0].value,
      spent_txo_count: 0,
      spent_txo_sum: 0,
      tx_count: 1,
    },
    mempool_stats: { funded_txo_count: 0, funded_txo_sum: 0, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 0 },
  }),
  esplora(`/address/${RECIPIENT}/txs/chain`, [txIn]),
  esplora(`/address/${SENDER}/txs/chain`, [txIn], senderPage),
];

const PAYMENT_HASH = 'F4AB442A6D4CBB935D66E1DA7309A5FC71C7143ED4049053EC14E3875B0CF9BF';
const PAYER = 'r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59';
const ISSUER = 'rMH4UxPrbuMa1spCBR98hLLyNJp4d8p4tM';
const payment = read('ripple', 'rippled', 'tx__payment.json').result;
const accountInfo = read('ripple', 'rippled', 'accountInfo.json').result;
const xrpl = (method: string, params: Record<string, unknown>, result: unknown): Cassette => ({
  request: { method: 'POST', path: '/xrpl', rpc: { method, params: [params] } },
  response: { body: { result } },
});
const page = (account: string) =>
  xrpl(
    'account_tx',
    { account, ledger_index_min: -1, ledger_index_max: -1, limit: 50, forward: false },
    {
      account,
      limit: 50,
      transactions: [{ meta: payment.meta, tx_json: payment.tx_json, validated: true }],
      validated: true,
    },
  );
const xrplCassettes: Cassette[] = [
  xrpl('tx', { transaction: PAYMENT_HASH, binary: false }, payment),
  xrpl('account_info', { account: PAYER, ledger_index: 'validated' }, accountInfo),
  xrpl(
    'account_info',
    { account: ISSUER, ledger_index: 'validated' },
    { ...accountInfo, account_data: { ...accountInfo.account_data, Account: ISSUER } },
  ),
  page(PAYER),
  page(ISSUER),
];

describe('screening through the bitcoin and XRPL adapters against recorded responses', () => {
  let stack: TestStack;
  let server: ReplayServer;
  let cassettes: Cassette[] = [];

  async function withServer(list: Cassette[], env: Record<string, string> = {}) {
    server = await startReplayServer(list);
    stack = await startTestStack({
      env: { BITCOIN_ESPLORA_URL: `${server.url}/bitcoin`, XRPL_RPC_URL: `${server.url}/xrpl`, ...env },
    });
  }
  afterEach(async () => {
    expect(server.misses).toEqual([]);
    await stack.stop();
    await server.close();
    cassettes = [];
  });

  const screen = (body: Record<string, unknown>) => screenJob(stack, body);

  test(
    'when a bitcoin transaction is screened (KYT), then ' + 'its parties, balances and crawl come from Esplora',
    async () => {
      await withServer([...bitcoinCassettes(), ...cassettes]);
      const { polled, full } = await screen({ chain: 'bitcoin', txid: TX_IN });
      expect(polled.status).toBe('completed');
      expect(polled.response.target_summary.address).toBe(RECIPIENT);
      expect(full.transaction).toMatchObject({ hash: TX_IN, status: 'success' });
      expect(full.graph.nodes.map((n: any) => n.address)).toEqual(expect.arrayContaining([SENDER, RECIPIENT]));
      expect(full.crawl).toMatchObject({ ran: true, complete: true });
    },
  );

  test('when the Esplora page answers 429 first, then the job still completes with the same result', async () => {
    await withServer([
      esplora(
        `/address/${SENDER}/txs/chain`,
        {},
        { response: { status: 429, body: {}, headers: { 'retry-after': '0' } }, times: 1 },
      ),
      ...bitcoinCassettes(),
    ]);
    const { polled, full } = await screen({ chain: 'bitcoin', txid: TX_IN });
    expect(polled.status).toBe('completed');
    expect(full.crawl.complete).toBe(true);
  });

  test(
    'when the crawl hits a hanging connection, then the job completes within crawlTimeout ' +
      'plus a margin, marked partial',
    async () => {
      await withServer(bitcoinCassettes({ hang: true }));
      const { polled, full, ms } = await screen({ chain: 'bitcoin', txid: TX_IN, crawlTimeout: 2000 });
      expect(polled.status).toBe('completed');
      expect(full.crawl).toMatchObject({ complete: false, truncated: expect.arrayContaining(['deadline']) });
      expect(polled.response.risk_reason).toContain('unknown, not clean');
      expect(ms).toBeLessThan(2000 + 3000);
    },
  );

  test(
    'when the same transaction is screened twice, then the second run reads the finished transaction and ' +
      'address pages from the Postgres cache',
    async () => {
      await withServer(bitcoinCassettes(), { CHAIN_CACHE_TRANSFERS_TTL_MS: '600000' });
      await stack.pool.query(`DELETE FROM chain_transactions WHERE chain = 'bitcoin'`);
      await stack.pool.query(`DELETE FROM chain_address_transfers WHERE chain = 'bitcoin'`);
      const first = await screen({ chain: 'bitcoin', txid: TX_IN });
      const servedAfterFirst = server.served.length;
      const second = await screen({ chain: 'bitcoin', txid: TX_IN });
      expect(first.full.performance.cache_hits).toBe(0);
      expect(second.full.performance.cache_hits).toBeGreaterThanOrEqual(3);
      expect(server.served.length - servedAfterFirst).toBeLessThan(servedAfterFirst);
      expect(second.polled.response.risk_score).toBe(first.polled.response.risk_score);
    },
  );

  test(
    'when the XRPL payer is screened (KYA), then its XRP ' + 'balance has a USD value from the XRP daily closes',
    async () => {
      await withServer(xrplCassettes);
      const { full } = await screen({ chain: 'ripple', address: PAYER });
      // Valued now: the last shipped close (2025-11-19, 2.1076 $).
      expect(full.target_summary.balances).toContainEqual({ asset: 'XRP', amount: 922.913243, usd: 1945.13 });
      expect(full.pricing).toContainEqual(
        expect.objectContaining({ asset: 'XRP', usd_price: 2.1076, as_of: '2025-11-20T00:00:00.000Z' }),
      );
      expect(full.unpriced_assets).not.toContain('XRP');
    },
  );

  test(
    'when an XRPL payment is screened (KYT) and its ' + 'payer (KYA), then both complete from rippled answers',
    async () => {
      await withServer(xrplCassettes);
      const kyt = await screen({ chain: 'ripple', txid: PAYMENT_HASH });
      const kya = await screen({ chain: 'ripple', address: PAYER });
      expect(kyt.polled.status).toBe('completed');
      expect(kyt.full.transaction).toMatchObject({ status: 'success' });
      expect(kya.polled.status).toBe('completed');
      expect(kya.full.graph.nodes).toEqual(
        expect.arrayContaining([expect.objectContaining({ address: ISSUER, hop: 1 })]),
      );
    },
  );
});
