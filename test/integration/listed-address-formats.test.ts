import { startAnvil, type AnvilNode } from '../helpers/anvil';
import { screenJob, startTestStack, type TestStack } from '../helpers/test-stack';

// OFAC "Sokolovski, Rolan": listed as BNB (a BNB Beacon Chain address) under binance-smart-chain,
// data/risk/sanctions_ofac.csv.
const BNB_LISTED = 'bnb136ns6lfw4zs5hg4n85vdthaad7hq5m4gtkgf23';
// OFAC "Wang, Mingming": a Tron address OFAC files under XBT, listed on tron.
const TRON_FILED_AS_XBT = 'TUCsTq7TofTCJRRoHk6RvhMoS2mJLm5Yzq';
// Designated 2026-07-02 (daily scrape); the shipped list once held it lower-cased as if it were bech32 (tb1…).
const TRON_ONCE_LOWER_CASED = 'TB1Bcv3x8mg7PVV4nVM48pgHJKcYboTypU';
// Listed under BSC and ETH; a 0x address on the same chain, whose facts the node does read.
const EVM_LISTED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';

/**
 * Every address format the reference data holds for a chain can be screened: a listed bnb1… address answers
 * sanctioned on binance-smart-chain (through the real API, Postgres and Temporal) even with a BSC node configured,
 * which reads 0x accounts only, and the answer says no on-chain facts were read for it.
 */
describe('listed addresses in every format the lists hold', () => {
  let anvil: AnvilNode;
  let stack: TestStack;

  beforeAll(async () => {
    // Chain id 56: a BSC node, so the smart chain's 0x accounts are read on chain and bnb1… ones cannot be.
    anvil = await startAnvil({ chainId: 56 });
    stack = await startTestStack({ env: { BSC_RPC_URL: anvil.rpcUrl } });
  }, 60_000);
  afterAll(async () => {
    await stack.stop();
    await anvil.stop();
  });

  test.each([BNB_LISTED, BNB_LISTED.toUpperCase()])(
    'when the listed BNB Beacon Chain address %s is screened on binance-smart-chain, then it is sanctioned/HIGH ' +
      'on the lists and the answer says no node read it',
    async (address) => {
      const { polled, full } = await screenJob(stack, { chain: 'binance-smart-chain', address });

      expect(polled.status).toBe('completed');
      const r = polled.response;
      expect(r).toMatchObject({ chain: 'binance-smart-chain', risk_level: 'HIGH', risk_score: 100 });
      expect(r.rule_scores.is_sanctioned).toBe(100);
      expect(r.target_summary.address).toBe(BNB_LISTED);
      expect(r.risk_reason).toMatch(/Sokolovski, Rolan/);
      expect(r.risk_reason).toMatch(/no node reads a BNB Beacon Chain address \(bnb1…\) on binance-smart-chain/);
      expect(full.crawl).toMatchObject({ ran: false, complete: false, depth_reached: 0 });
      expect(full.crawl.note).toMatch(/on-chain facts not read/);
      expect(full.hits).toContainEqual(expect.objectContaining({ rule: 'is_sanctioned' }));
    },
  );

  test(
    'when a 0x address is screened on the same chain, ' + 'then the node is read (facts where a node exists)',
    async () => {
      const { polled, full } = await screenJob(stack, { chain: 'binance-smart-chain', address: EVM_LISTED });

      expect(polled.response).toMatchObject({ risk_level: 'HIGH', risk_score: 100 });
      expect(full.crawl).toMatchObject({ ran: true });
      expect(full.crawl.depth_reached).toBeGreaterThanOrEqual(1);
    },
  );

  test.each([TRON_FILED_AS_XBT, TRON_ONCE_LOWER_CASED])(
    'when the listed Tron address %s is screened on tron, then it is sanctioned/HIGH',
    async (address) => {
      const { polled } = await screenJob(stack, { chain: 'tron', address });

      expect(polled.status).toBe('completed');
      expect(polled.response).toMatchObject({ chain: 'tron', risk_level: 'HIGH', risk_score: 100 });
      expect(polled.response.rule_scores.is_sanctioned).toBe(100);
    },
  );

  test(
    'when a bnb1 address with a broken checksum is submitted, ' + 'then 400 names the address and both formats',
    async () => {
      const user = await stack.createUser({ credits: 1 });
      const res = await stack.http('POST', '/api/v1/kyt/job', {
        key: user.key,
        body: { chain: 'binance-smart-chain', address: `${BNB_LISTED.slice(0, -1)}4` },
      });

      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'address' } });
      expect(JSON.stringify(res.body)).toMatch(/bnb1/);
    },
  );
});
