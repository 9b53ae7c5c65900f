import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ANVIL_DEFAULT_ACCOUNT, sendNative, startAnvil, type AnvilNode } from '../helpers/anvil';
import { screenJob, startTestStack, type TestStack } from '../helpers/test-stack';

// OFAC SDN (NPWMD) in data/risk/sanctions_ofac.csv, also a BSC key
const SANCTIONED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';
const BNB = 10n ** 18n;
const fresh = () => `0x${randomBytes(20).toString('hex')}`;
const shippedModel = () =>
  JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'data', 'risk', 'risk-model.json'), 'utf8'));

/**
 * BNB on a real node (anvil, chain id 56): T receives 9 BNB from a sanctioned address and 1 BNB from a
 * clean one. With BNB priced, the crawl splits T's inflows by value (90 % / 10 %), not by count (50 / 50).
 */
describe('BNB valued by time on binance-smart-chain (anvil)', () => {
  let stack: TestStack;
  let node: AnvilNode;
  const [T, X] = [fresh(), fresh()];
  let sanctionedToT: string;

  beforeAll(async () => {
    node = await startAnvil({ chainId: 56 });
    stack = await startTestStack({ env: { BSC_RPC_URL: node.rpcUrl } });
    await sendNative({ rpcUrl: node.rpcUrl, from: ANVIL_DEFAULT_ACCOUNT, to: X, valueWei: 2n * BNB });
    sanctionedToT = await sendNative({ rpcUrl: node.rpcUrl, from: SANCTIONED, to: T, valueWei: 9n * BNB });
    await sendNative({ rpcUrl: node.rpcUrl, from: X, to: T, valueWei: 1n * BNB });
  }, 60_000);
  afterAll(async () => {
    await stack.stop();
    await node.stop();
  });

  const screen = (body: Record<string, unknown>) => screenJob(stack, { chain: 'binance-smart-chain', ...body }, 20);

  test(
    'when T is screened (KYA), then its BNB balance has a ' +
      'USD value and its sources are shared by value, not by count',
    async () => {
      // Act
      const { polled, full } = await screen({ address: T });
      // Assert: the balance is priced from the shipped daily closes
      const price = full.pricing.find((p: any) => p.asset === 'BNB');
      expect(price).toMatchObject({
        usd_price: expect.any(Number),
        as_of: expect.any(String),
        source: expect.stringContaining('BNB-USD daily close'),
      });
      expect(polled.response.target_summary.balances).toEqual([
        { asset: 'BNB', amount: 10, usd: Math.round(10 * price.usd_price * 100) / 100 },
      ]);
      expect(full.unpriced_assets).toEqual([]);
      // 9 of T's 10 BNB came from the sanctioned address: share 0.9 (by count it would be 0.5)
      const hit = full.hits.find((h: any) => h.address === SANCTIONED);
      expect(hit).toMatchObject({
        hop: 1,
        direction: 'in',
        share: 0.9,
        usd: Math.round(9 * price.usd_price * 100) / 100,
      });
      expect(full.graph.nodes.find((n: any) => n.address === X.toLowerCase() && n.hop === 1)).toMatchObject({
        share: 0.1,
      });
      expect(full.graph.edges.find((e: any) => e.from === SANCTIONED && e.to === T.toLowerCase())).toMatchObject({
        amount: '9 BNB',
        usd: hit.usd,
      });
    },
  );

  test("when any job completes, then its full response's model section is data/risk/risk-model.json", async () => {
    // Act
    const { full } = await screen({ address: X });
    // Assert
    expect(full.model).toEqual(shippedModel());
  });

  test(
    'when market_candles holds a BNB-USDT close two minutes before the transfer, then ' +
      'KYT values the transfer at that close',
    async () => {
      // Arrange: a synced candle just before the block, as the live sync (MARKET_LIVE_*) would store it
      const blockMs = (await screen({ txid: sanctionedToT.slice(2) })).full.transaction.timestamp;
      const open = new Date(Math.floor(Date.parse(blockMs) / 60_000) * 60_000 - 120_000);
      await stack.pool.query(
        `INSERT INTO market_symbols (symbol, connector, exchange_symbol, market) VALUES ('BNB-USDT', 'binance', ` +
          `'BNBUSDT', 'spot') ON CONFLICT DO NOTHING`,
      );
      await stack.pool.query(
        `INSERT INTO market_candles (symbol, interval, ts, open, high, low, close, volume, trades, origin) ` +
          `VALUES ('BNB-USDT', '1m', $1, 612, 613, 611, 612.34, 10, 5, 'native')`,
        [open],
      );
      try {
        // Act
        const { polled, full } = await screen({ txid: sanctionedToT.slice(2) });
        // Assert
        expect(polled.response.target_summary.balances).toEqual([{ asset: 'BNB', amount: 9, usd: 5511.06 }]);
        expect(full.pricing).toEqual([
          {
            asset: 'BNB',
            usd_price: 612.34,
            as_of: new Date(open.getTime() + 60_000).toISOString(),
            source: 'binance BNB-USDT close (market_candles)',
            valued_at: full.transaction.timestamp,
          },
        ]);
      } finally {
        await stack.pool.query(`DELETE FROM market_candles WHERE symbol = 'BNB-USDT'`);
        await stack.pool.query(
          `DELETE FROM market_symbols WHERE symbol = 'BNB-USDT' AND NOT EXISTS (SELECT 1 FROM market_files ` +
            `WHERE symbol = 'BNB-USDT')`,
        );
      }
    },
  );
});
