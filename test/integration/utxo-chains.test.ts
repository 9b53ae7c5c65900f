import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startReplayServer, type Cassette, type ReplayServer } from '../helpers/replay-server';
import { screenJob, startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * Litecoin, Bitcoin Cash and Dogecoin through the whole service
 * (API → Temporal → worker → engine → Esplora client).
 * Litecoin reads the strict replay server fed with the Esplora answers of test/fixtures/chains/litecoin/esplora:
 * CONSTRUCTED in Esplora's documented shape (no recorded Litecoin answers exist here; SOURCES.md says how they were
 * made), around the OFAC-listed LNwgtMxc… (KARASAVIDI), which Cryptex (also listed) paid and which paid FRESH; FRESH
 * then spent together with FRESH_B. Bitcoin Cash and Dogecoin have no endpoint: lists only.
 */
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'chains', 'litecoin', 'esplora');

// OFAC SDN entries (data/risk/sanctions_ofac.csv).
const SANCTIONED = 'LNwgtMxcKUQ51dw7bQL1yPQjBVZh6QEqsd'; // KARASAVIDI, Dmitrii
const CRYPTEX = 'M8yFL6SFC6TreATegTyuSYkDfDRbisdpT3'; // Cryptex
const BCH_LISTED = 'qpf2cphc5dkuclkqur7lhj2yuqq9pk3hmukle77vhq'; // SOUTHFRONT
const BCH_LEGACY = '18M8bJWMzWHDBMxoLqjHHAffdRy4SrzkfB'; // Secondeye Solution, as OFAC writes it
const DOGE_LISTED = 'DHzAVdEoL3PjGeLWNdEJwwMA1CeQ9J9Cpo'; // RASHEVSKYI, Dmytro
// Addresses of known test keys (nobody's wallet), in the fixtures only.
const FRESH = 'LgpcdkFa1kwjcoSnJ5cx4rFVB9jmpj286v';
const FRESH_B = 'ltc1q2vfxp232rx0z9rzn0hay9jptagk8c86dpj0mxx';
const OTHER = 'MV1iUPC1m3sWDRhWe6jeP2ThT3dRKyqwbA';
const MERCHANT = 'ltc1qyr9dx2zjg7rdla2dwc20za975w2gxtr4ydlemz';
const CRYPTEX_PAYS = '4ebf8ffa0bbb8eda68e8a84689d9ddfcf9eea3c96e8b0a8fce436143eb5152f3';
const SANCTIONED_PAYS = '4f4de5041e18ebf3708776fe5c32f4fd1c6ddc703c2a7d4599474f31ee3ff30e';
const SPENT_TOGETHER = '64ba5ca0558f287dd5dfa9663a8fc10430e56b63be80457082741ccb85226ef5';

/** Each fixture file as the Esplora route it answers: tx_<txid>, address_<a>, address_<a>_txs_chain. */
function litecoinCassettes(): Cassette[] {
  return readdirSync(FIXTURES).map((file) => {
    const name = file.replace(/\.json$/, '');
    const route = name.startsWith('tx_')
      ? `/tx/${name.slice('tx_'.length)}`
      : name.endsWith('_txs_chain')
        ? `/address/${name.slice('address_'.length, -'_txs_chain'.length)}/txs/chain`
        : `/address/${name.slice('address_'.length)}`;
    const body = JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8'));
    return { request: { method: 'GET', path: `/litecoin${route}` }, response: { body } };
  });
}

describe('UTXO networks beyond bitcoin, through the API', () => {
  let stack: TestStack;
  let server: ReplayServer;

  beforeAll(async () => {
    server = await startReplayServer(litecoinCassettes());
    stack = await startTestStack({ env: { LITECOIN_ESPLORA_URL: `${server.url}/litecoin` } });
  }, 60_000);
  afterAll(async () => {
    expect(server.misses).toEqual([]);
    await stack.stop();
    await server.close();
  });

  test(
    'when the OFAC-listed litecoin address is screened (KYA), then it is sanctioned and its exposure is crawled ' +
      'from the Esplora answers: the listed sender one hop upstream, its payees downstream',
    async () => {
      const { polled, full } = await screenJob(stack, { chain: 'litecoin', address: SANCTIONED });

      expect(polled.status).toBe('completed');
      expect(polled.response).toMatchObject({ chain: 'litecoin', risk_level: 'HIGH', risk_score: 100 });
      expect(polled.response.rule_scores.is_sanctioned).toBe(100);
      expect(polled.response.risk_reason).toMatch(/OFAC SDN list: KARASAVIDI, Dmitrii/);
      expect(polled.response.target_summary.balances).toEqual([{ asset: 'LTC', amount: 0, usd: 0 }]);
      expect(full.crawl).toMatchObject({ ran: true, complete: true, note: null });
      expect(full.crawl.depth_reached).toBeGreaterThanOrEqual(2);
      expect(full.hits).toContainEqual(
        expect.objectContaining({
          rule: 'tag_score',
          hop: 1,
          direction: 'in',
          address: CRYPTEX,
          category: 'sanctions',
          path: [SANCTIONED, CRYPTEX],
        }),
      );
      const edges = full.graph.edges.map((e: any) => ({ from: e.from, to: e.to, txids: e.txids, amount: e.amount }));
      expect(edges).toEqual(
        expect.arrayContaining([
          { from: CRYPTEX, to: SANCTIONED, txids: [CRYPTEX_PAYS], amount: '2.5 LTC' },
          { from: SANCTIONED, to: FRESH, txids: [SANCTIONED_PAYS], amount: '2 LTC' },
          { from: SANCTIONED, to: OTHER, txids: [SANCTIONED_PAYS], amount: '0.4999 LTC' },
          { from: FRESH, to: MERCHANT, txids: [SPENT_TOGETHER], amount: '2.3 LTC' },
        ]),
      );
      // No LTC price is shipped (data/prices): the amounts are listed as unpriced, never guessed.
      expect(full.unpriced_assets).toEqual(['LTC']);
    },
  );

  test(
    'when a fresh litecoin address the listed one paid is screened, then its exposure to it is the answer, and ' +
      'the address it spent together with joins its cluster (common input)',
    async () => {
      const { polled, full } = await screenJob(stack, { chain: 'litecoin', address: FRESH });

      expect(polled.status).toBe('completed');
      expect(polled.response.rule_scores.is_sanctioned).toBe(0);
      expect(polled.response.risk_level).toBe('HIGH');
      expect(polled.response.risk_reason).toMatch(/directly from an OFAC SDN listed address \(KARASAVIDI, Dmitrii\)/);
      expect(full.hits).toContainEqual(
        expect.objectContaining({ rule: 'tag_score', hop: 1, direction: 'in', path: [FRESH, SANCTIONED], share: 1 }),
      );

      const user = await stack.createUser();
      const cluster = await stack.http('GET', `/api/v1/clusters/litecoin/${FRESH}`, { key: user.key });
      expect(cluster.status).toBe(200);
      expect(cluster.body.data.members).toEqual(expect.arrayContaining([FRESH, FRESH_B]));
      expect(cluster.body.data.merges).toContainEqual(
        expect.objectContaining({ heuristic: 'common_input', txid: SPENT_TOGETHER }),
      );
    },
  );

  test('when a litecoin transaction is screened (KYT), then its listed sender is the answer', async () => {
    const { polled, full } = await screenJob(stack, { chain: 'litecoin', txid: SANCTIONED_PAYS.toUpperCase() });

    expect(polled.status).toBe('completed');
    expect(polled.response).toMatchObject({ api_type: 'KYT', risk_level: 'HIGH', risk_score: 100 });
    expect(polled.response.risk_reason).toMatch(/^Sender LNwgtMxc\S+ is on the OFAC SDN list: KARASAVIDI/);
    expect(full.transaction).toMatchObject({ hash: SANCTIONED_PAYS, status: 'success' });
  });

  test.each([
    ['without its prefix', BCH_LISTED, BCH_LISTED, /SOUTHFRONT/],
    ['with its prefix', `bitcoincash:${BCH_LISTED}`, BCH_LISTED, /SOUTHFRONT/],
    ['upper-case with its prefix', `BITCOINCASH:${BCH_LISTED.toUpperCase()}`, BCH_LISTED, /SOUTHFRONT/],
    // OFAC writes this one in the legacy form; the list stores its CashAddr, so either spelling matches.
    ['in the legacy form OFAC wrote it', BCH_LEGACY, 'qpgf0ztxq3mwfq6eg5versgfdzq9c3pwv5jsk6wnay', /Secondeye/],
  ])(
    'when a listed bitcoin cash CashAddr is screened %s, then it is sanctioned on the lists alone',
    async (_how, address, stored, name) => {
      const { polled, full } = await screenJob(stack, { chain: 'bitcoin-cash', address });

      expect(polled.status).toBe('completed');
      expect(polled.response).toMatchObject({ chain: 'bitcoin-cash', risk_level: 'HIGH', risk_score: 100 });
      expect(polled.response.target_summary.address).toBe(stored);
      expect(polled.response.risk_reason).toMatch(name);
      expect(full.crawl).toMatchObject({ ran: false, depth_reached: 0 });
      expect(full.crawl.note).toMatch(/no bitcoin-cash node is configured: screened against the reference lists only/);
    },
  );

  test.each([`bitcoincash:${BCH_LISTED}`, BCH_LISTED])(
    'when the list is asked for %s on bitcoin-cash, then it finds the stored CashAddr',
    async (address) => {
      const user = await stack.createUser();
      const res = await stack.http('GET', `/api/v1/lists/ofac/addresses/${address}?chain=bitcoin-cash`, {
        key: user.key,
      });

      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ address: BCH_LISTED, listed: true });
      expect(res.body.data.entries).toEqual([
        expect.objectContaining({ chain: 'bitcoin-cash', sdn_name: 'SOUTHFRONT' }),
      ]);
    },
  );

  test('when a listed dogecoin address is screened with no endpoint, then it is sanctioned, lists only', async () => {
    const { polled, full } = await screenJob(stack, { chain: 'dogecoin', address: DOGE_LISTED });

    expect(polled.response).toMatchObject({ chain: 'dogecoin', risk_level: 'HIGH', risk_score: 100 });
    expect(polled.response.risk_reason).toMatch(/OFAC SDN list: RASHEVSKYI, Dmytro; no dogecoin node is configured/);
    expect(full.crawl).toMatchObject({ ran: false, complete: false });
  });

  test('when the capabilities are read, then each new chain says what this deployment can do on it', async () => {
    const user = await stack.createUser();
    const caps = await stack.http('GET', '/api/v1/capabilities', { key: user.key });

    expect(caps.status).toBe(200);
    const byChain = Object.fromEntries(caps.body.data.chains.map((c: any) => [c.chain, c]));
    expect(byChain.litecoin).toEqual({
      chain: 'litecoin',
      name: 'Litecoin',
      reads: 'on_chain',
      kyt: true,
      exposure: true,
      historySource: 'Esplora',
      clustering: true,
    });
    for (const [chain, name] of [
      ['bitcoin-cash', 'Bitcoin Cash'],
      ['dogecoin', 'Dogecoin'],
    ])
      expect(byChain[chain!]).toEqual({
        chain,
        name,
        reads: 'reference_data_only',
        kyt: false,
        exposure: false,
        historySource: null,
        clustering: false,
      });
  });

  test.each([
    ['an unknown chain', { chain: 'litecoinz', address: SANCTIONED }, 'chain', /litecoin, bitcoin-cash, dogecoin/],
    [
      'a bitcoin bech32 address on litecoin',
      { chain: 'litecoin', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
      'address',
      /litecoin address/,
    ],
    ['an ltc1 address on bitcoin', { chain: 'bitcoin', address: FRESH_B }, 'address', /bitcoin address/],
    ['a litecoin address on dogecoin', { chain: 'dogecoin', address: SANCTIONED }, 'address', /dogecoin address/],
    [
      'a CashAddr with a broken checksum',
      { chain: 'bitcoin-cash', address: `bitcoincash:${BCH_LISTED.slice(0, -1)}r` },
      'address',
      /CashAddr/,
    ],
    [
      'a litecoin transaction id that is not 64 hex characters',
      { chain: 'litecoin', txid: `0x${SANCTIONED_PAYS}` },
      'txid',
      /64 hex characters/,
    ],
  ])('when %s is submitted, then 400 INVALID_PARAMETER names the field and what it expected', async (...args) => {
    const [, body, parameter, expected] = args;
    const user = await stack.createUser({ credits: 5 });

    const res = await stack.http('POST', '/api/v1/kyt/job', { key: user.key, body });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_PARAMETER', details: { parameter } } });
    expect(res.body.error.details.expected).toMatch(expected);
  });
});
