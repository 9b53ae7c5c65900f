import { randomBytes } from 'node:crypto';
import { sendNative, startAnvil, type AnvilNode } from '../helpers/anvil';
import { type BitcoinNode, type SentTransaction, startBitcoinNode } from '../helpers/btcd';
import { recordSecret } from '../helpers/run-log';
import { pollUntilDone, startTestStack, type TestStack } from '../helpers/test-stack';

const ETH = 10n ** 18n;
const fresh = () => `0x${randomBytes(20).toString('hex')}`;

/**
 * Exposure follows entities (issue 29) through the whole service, on a real btcd (regtest, address index) and a real
 * anvil: a screening grows the clusters of what it reads (common-input on bitcoin, CoinJoins never merged; deposit
 * addresses on EVM), a label on any member reaches the screened address with `via_cluster`, and GET
 * /api/v1/clusters shows the cluster and the merges that built it.
 */
describe('entities: clusters grown by screenings, labels that follow them', () => {
  let node: BitcoinNode;
  let anvil: AnvilNode;
  let stack: TestStack;
  let owner: { id: string; key: string };
  let stranger: { id: string; key: string };

  // Bitcoin: alice spends a1 and a2 together (a2 is on the owner's own list).
  let a1: string;
  let a2: string;
  let coSpend: SentTransaction;
  // Bitcoin: a Whirlpool-shaped CoinJoin (5 participants, 5 equal outputs); p[0]'s input address is labelled.
  let participants: string[];
  let coinJoin: SentTransaction;
  // Bitcoin: an entity of 30 addresses joined by three overlapping multi-input spends.
  let entity: string[];
  // EVM: a deposit address of a labelled exchange hot wallet, paid by two customers.
  let hotWallet: string;
  let deposit: string;
  let customer: string;
  let sweep: string;

  const screen = async (key: string, body: Record<string, unknown>) => {
    const submit = await stack.http('POST', '/api/v1/kyt/job', { key, body });
    if (submit.status !== 202) throw new Error(`submit answered ${submit.status}: ${JSON.stringify(submit.body)}`);
    const polled = await pollUntilDone(stack, key, submit.body.data.request_id, 60_000);
    const full = await stack.http('GET', `/api/v1/kyt/job/${submit.body.data.request_id}/fullresponse`, { key });
    return { polled: polled.data, full: full.body.data.response };
  };
  const label = async (key: string, chain: string, address: string, category: string) => {
    const res = await stack.http('POST', '/api/v1/custom-labels', { key, body: { chain, address, category } });
    expect(res.status).toBe(201);
  };

  beforeAll(async () => {
    node = await startBitcoinNode({ seed: 'entity-screening' });
    recordSecret(decodeURIComponent(new URL(node.rpcUrl).password));
    anvil = await startAnvil({ chainId: 1 });
    const { wallet } = node;

    a1 = wallet.newAddress('alice');
    a2 = wallet.newAddress('alice');
    participants = [0, 1, 2, 3, 4].map((i) => wallet.newAddress(`mixer-user-${i}`));
    entity = Array.from({ length: 30 }, () => wallet.newAddress('entity'));
    await wallet.fundMany([
      { address: a1, value: 1_500_000n },
      { address: a2, value: 2_000_000n },
      ...participants.map((address) => ({ address, value: 1_010_000n })),
      ...entity.map((address) => ({ address, value: 100_000n })),
    ]);
    await wallet.mine(1);

    coSpend = await wallet.spend({
      inputs: wallet.utxosOf('alice'),
      outputs: [{ address: wallet.newAddress('bob'), value: 3_000_000n }],
      fee: 5_000n,
    });
    coinJoin = await wallet.spend({
      inputs: participants.flatMap((a) => wallet.utxosOf(wallet.ownerOf(a)!).filter((u) => u.address === a)),
      outputs: participants.map((_, i) => ({ address: wallet.newAddress(`mixer-user-${i}`), value: 1_000_000n })),
      fee: 50_000n,
    });
    // Three spends over entity[0..10], [10..20], [20..29]: each shares one address with the next.
    for (const [from, to] of [
      [0, 11],
      [10, 21],
      [20, 30],
    ] as const) {
      const spent = new Set(entity.slice(from, to));
      await wallet.spend({
        inputs: wallet.utxosOf('entity').filter((u) => spent.has(u.address)),
        outputs: [{ address: wallet.newAddress('merchant'), value: 50_000n }],
        fee: 10_000n,
        // The change goes back to the last address, whose next spend joins this one's set to the next.
        change: entity[to - 1]!,
      });
    }
    await wallet.mine(1);

    hotWallet = fresh();
    deposit = fresh();
    customer = fresh();
    const other = fresh();
    await sendNative({ rpcUrl: anvil.rpcUrl, to: customer, valueWei: 5n * ETH });
    await sendNative({ rpcUrl: anvil.rpcUrl, to: other, valueWei: 5n * ETH });
    await sendNative({ rpcUrl: anvil.rpcUrl, from: customer, to: deposit, valueWei: 2n * ETH });
    await sendNative({ rpcUrl: anvil.rpcUrl, from: other, to: deposit, valueWei: 1n * ETH });
    sweep = await sendNative({ rpcUrl: anvil.rpcUrl, from: deposit, to: hotWallet, valueWei: (2999n * ETH) / 1000n });
    // A second customer's deposit address sweeps to the same hot wallet: a hot wallet collects from many.
    const secondDeposit = fresh();
    await sendNative({ rpcUrl: anvil.rpcUrl, from: other, to: secondDeposit, valueWei: 1n * ETH });
    await sendNative({ rpcUrl: anvil.rpcUrl, from: secondDeposit, to: hotWallet, valueWei: (999n * ETH) / 1000n });

    stack = await startTestStack({
      env: { BITCOIN_RPC_URL: node.rpcUrl, BITCOIN_NETWORK: 'regtest', ETHEREUM_RPC_URL: anvil.rpcUrl },
    });
    owner = await stack.createUser({ credits: 500 });
    stranger = await stack.createUser({ credits: 500 });
    await label(owner.key, 'bitcoin', a2, 'ransomware');
    await label(owner.key, 'bitcoin', participants[0]!, 'ransomware');
    await label(owner.key, 'ethereum', hotWallet, 'exchange');
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
    await node?.stop();
    await anvil?.stop();
  });

  test(
    'when an address shared a transaction input with a custom-labelled address, ' +
      'then it screens HIGH with via_cluster naming that txid',
    async () => {
      const { polled, full } = await screen(owner.key, { chain: 'bitcoin', address: a1 });

      expect(polled.status).toBe('completed');
      expect(polled.response.risk_level).toBe('HIGH');
      const hit = full.hits.find((h: { via_cluster?: unknown }) => h.via_cluster);
      expect(hit).toMatchObject({
        address: a1,
        category: 'ransomware',
        source: 'custom',
        via_cluster: { txid: coSpend.txid, heuristic: 'common_input', address: a2, size: 2 },
      });
      expect(polled.response.risk_reason).toContain(coSpend.txid);
      expect(full.clusters).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ address: a1, cluster_id: hit.via_cluster.cluster_id, size: 2 }),
        ]),
      );
    },
  );

  test("when another account screens the same address, then the owner's label does not reach its answer", async () => {
    const { polled, full } = await screen(stranger.key, { chain: 'bitcoin', address: a1 });

    expect(polled.status).toBe('completed');
    expect(polled.response.risk_level).toBe('LOW');
    expect(full.hits.filter((h: { via_cluster?: unknown }) => h.via_cluster)).toEqual([]);
    const cluster = await stack.http('GET', `/api/v1/clusters/bitcoin/${a1}`, { key: stranger.key });
    expect(cluster.status).toBe(200);
    expect(cluster.body.data).toMatchObject({ size: 2, labels: [] });
  });

  test('when a CoinJoin participant is screened, then it is not merged with the other participants', async () => {
    const { polled, full } = await screen(owner.key, { chain: 'bitcoin', address: participants[1] });

    expect(polled.status).toBe('completed');
    expect(polled.response.risk_level).not.toBe('HIGH');
    expect(full.hits.filter((h: { via_cluster?: unknown }) => h.via_cluster)).toEqual([]);
    for (const p of participants) {
      const cluster = await stack.http('GET', `/api/v1/clusters/bitcoin/${p}`, { key: owner.key });
      expect(cluster.status).toBe(200);
      for (const other of participants.filter((q) => q !== p)) expect(cluster.body.data.members).not.toContain(other);
      expect(cluster.body.data.merges.map((m: { txid: string }) => m.txid)).not.toContain(coinJoin.txid);
    }
  });

  test('when a deposit address is screened, then it is attributed to the exchange its sweeps go to', async () => {
    const { polled, full } = await screen(owner.key, { chain: 'ethereum', address: deposit });

    expect(polled.status).toBe('completed');
    const hit = full.hits.find((h: { via_cluster?: unknown }) => h.via_cluster);
    expect(hit).toMatchObject({
      category: 'exchange',
      via_cluster: { heuristic: 'deposit_address', address: hotWallet.toLowerCase(), txid: sweep },
    });
    const cluster = await stack.http('GET', `/api/v1/clusters/ethereum/${deposit}`, { key: owner.key });
    // The hot wallet's other deposit address joins too: the exchange is the hot wallet and both deposit addresses.
    expect(cluster.body.data).toMatchObject({
      size: 3,
      labels: [expect.objectContaining({ address: hotWallet.toLowerCase(), category: 'exchange', source: 'custom' })],
    });
    expect(cluster.body.data.merges).toHaveLength(2);
    expect(cluster.body.data.merges.every((m: { heuristic: string }) => m.heuristic === 'deposit_address')).toBe(true);
    expect(cluster.body.data.merges).toEqual(expect.arrayContaining([expect.objectContaining({ txid: sweep })]));
    expect(cluster.body.data.members).toEqual(expect.arrayContaining([deposit.toLowerCase(), hotWallet.toLowerCase()]));
  });

  test(
    'when a deposit address sweeps to a listed exchange seen from no other deposit, ' +
      'then it is attributed to that exchange',
    async () => {
      const { rows } = await stack.pool.query(
        `SELECT address, name FROM ref_address_labels WHERE chain = 'ethereum' AND category = 'exchange'
         AND confidence = 'high' AND address LIKE '0x%' ORDER BY address LIMIT 1`,
      );
      const listedHot: string = rows[0].address;
      const lone = fresh();
      const payer = fresh();
      await sendNative({ rpcUrl: anvil.rpcUrl, to: payer, valueWei: 3n * ETH });
      await sendNative({ rpcUrl: anvil.rpcUrl, from: payer, to: lone, valueWei: 2n * ETH });
      const loneSweep = await sendNative({
        rpcUrl: anvil.rpcUrl,
        from: lone,
        to: listedHot,
        valueWei: (1999n * ETH) / 1000n,
      });

      const { polled, full } = await screen(stranger.key, { chain: 'ethereum', address: lone });

      expect(polled.status).toBe('completed');
      expect(full.hits).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            hop: 0,
            category: 'exchange',
            via_cluster: expect.objectContaining({ heuristic: 'deposit_address', address: listedHot, txid: loneSweep }),
          }),
        ]),
      );
      expect(polled.response.target_summary.tags).toEqual(
        expect.arrayContaining([expect.objectContaining({ type: 'exchange', name: rows[0].name })]),
      );
    },
  );

  test(
    'when the customer who paid the deposit address is screened, ' +
      'then it is not part of the exchange, and paid into it one hop away',
    async () => {
      const { polled, full } = await screen(owner.key, { chain: 'ethereum', address: customer });

      expect(polled.status).toBe('completed');
      // Its own answer carries no cluster finding; what it paid into is the exchange's entity, one hop away.
      expect(full.hits.filter((h: { via_cluster?: unknown; hop: number }) => h.via_cluster && h.hop === 0)).toEqual([]);
      expect(full.hits).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            hop: 1,
            address: deposit,
            category: 'exchange',
            via_cluster: expect.objectContaining({ heuristic: 'deposit_address', address: hotWallet.toLowerCase() }),
          }),
        ]),
      );
      const cluster = await stack.http('GET', `/api/v1/clusters/ethereum/${customer}`, { key: owner.key });
      expect(cluster.body.data.members).not.toContain(hotWallet.toLowerCase());
    },
  );

  test(
    'when 20 screenings expand the same 30-address cluster at once, ' + 'then they end with one consistent cluster',
    async () => {
      const user = await stack.createUser({ credits: 500 });
      const results = await Promise.all(
        entity.slice(0, 20).map((address) => screen(user.key, { chain: 'bitcoin', address })),
      );

      expect(results.map((r) => r.polled.status)).toEqual(Array(20).fill('completed'));
      const views = await Promise.all(
        entity.map((address) => stack.http('GET', `/api/v1/clusters/bitcoin/${address}`, { key: user.key })),
      );
      const ids = new Set(views.map((v) => v.body.data.cluster_id));
      expect(ids.size).toBe(1);
      expect(views[0]!.body.data).toMatchObject({ size: 30, partial: false });
      const id = Number([...ids][0]);
      const { rows } = await stack.pool.query(
        `SELECT c.size, (SELECT count(*)::int FROM cluster_addresses m WHERE m.cluster_id = c.id) AS members,
              (SELECT count(*)::int FROM cluster_links l WHERE l.chain = 'bitcoin'
                 AND l.address_a = ANY($2::text[])) AS links
       FROM clusters c WHERE c.id = $1`,
        [id, entity],
      );
      expect(rows[0]).toEqual({ size: 30, members: 30, links: 29 });
    },
  );

  test(
    "when a screening merges a monitored address's cluster with a labelled one, " +
      'then the monitor re-screens and alerts',
    async () => {
      const { wallet } = node;
      const watched = wallet.newAddress('carol');
      const banned = wallet.newAddress('carol');
      await wallet.fundMany([
        { address: watched, value: 400_000n },
        { address: banned, value: 400_000n },
      ]);
      await wallet.mine(1);
      await label(owner.key, 'bitcoin', banned, 'sanctions');
      const created = await stack.http('POST', '/api/v1/monitors', {
        key: owner.key,
        body: { chain: 'bitcoin', address: watched, alert_level: 'MEDIUM' },
      });
      expect(created.status).toBe(201);
      const monitorId = created.body.data.id as string;
      const monitor = async () =>
        (await stack.http('GET', `/api/v1/monitors/${monitorId}`, { key: owner.key })).body.data;
      const until = async <T>(what: string, probe: () => Promise<T | null>, ms = 30_000): Promise<T> => {
        const deadline = Date.now() + ms;
        for (;;) {
          const found = await probe();
          if (found) return found;
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
          await new Promise((r) => setTimeout(r, 200));
        }
      };
      const baseline = await until('the baseline', async () => ((await monitor())?.last_result ? monitor() : null));
      expect(baseline.last_result.risk_level).not.toBe('HIGH');

      // carol spends both together, and another account's screening of the banned address reads that transaction.
      const together = await wallet.spend({
        inputs: wallet.utxosOf('carol'),
        outputs: [{ address: wallet.newAddress('dave'), value: 700_000n }],
        fee: 5_000n,
      });
      await wallet.mine(1);
      const other = await screen(stranger.key, { chain: 'bitcoin', address: banned });
      expect(other.polled.status).toBe('completed');

      const after = await until('the re-screen', async () => {
        const m = await monitor();
        return m?.last_request_id !== baseline.last_request_id && m?.last_result ? m : null;
      });
      expect(after.last_result.risk_level).toBe('HIGH');
      const alerts = await stack.http('GET', `/api/v1/monitors/${monitorId}/alerts`, { key: owner.key });
      expect(alerts.body.data).toEqual([expect.objectContaining({ kind: 'risk_changed' })]);
      const job = await stack.http('GET', `/api/v1/kyt/job/${after.last_request_id}/fullresponse`, { key: owner.key });
      expect(job.body.data.response.hits).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ via_cluster: expect.objectContaining({ txid: together.txid, address: banned }) }),
        ]),
      );
    },
  );

  test.each([
    ['an unknown chain', '/api/v1/clusters/litecoinz/abc', 'chain'],
    ['a malformed bitcoin address', '/api/v1/clusters/bitcoin/bc1qnotanaddress', 'address'],
    [
      'a mainnet address on a regtest deployment',
      '/api/v1/clusters/bitcoin/1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      'address',
    ],
    ['a limit over 1000', '/api/v1/clusters/ethereum/0x0000000000000000000000000000000000000001?limit=5000', 'limit'],
  ])('when GET /clusters is asked with %s, then it answers 400 naming the parameter', async (_what, url, parameter) => {
    const res = await stack.http('GET', url, { key: owner.key });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_PARAMETER', details: { parameter } } });
  });

  test(
    'when GET /clusters is asked for an address no screening read, ' + 'then it answers a cluster of one, partial',
    async () => {
      const res = await stack.http('GET', `/api/v1/clusters/ethereum/${fresh()}`, { key: owner.key });

      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ cluster_id: null, size: 1, partial: true, merges: [] });
    },
  );
});
