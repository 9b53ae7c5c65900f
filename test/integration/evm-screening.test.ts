import { ANVIL_DEFAULT_ACCOUNT, deployTestToken, mintToken, sendNative, sendToken, startAnvil } from '../helpers/anvil';
import { pollUntilDone, startTestStack, type TestStack } from '../helpers/test-stack';

const SANCTIONED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c'; // OFAC SDN (NPWMD) in data/risk/sanctions_ofac.csv
const USDT_FROZEN = '0x008fe40574e881e7247b50b991c0cc057d66647f'; // USDT freeze in data/risk/stablecoin_blacklist.csv

describe('KYT and KYA on ethereum against a real node (anvil)', () => {
  let stack: TestStack;
  let anvil: Awaited<ReturnType<typeof startAnvil>>;

  beforeAll(async () => {
    // Chain id 1: the EVM client refuses a node whose eth_chainId is not the configured chain's.
    anvil = await startAnvil({ chainId: 1 });
    stack = await startTestStack({ env: { ETHEREUM_RPC_URL: anvil.rpcUrl } });
  });
  afterAll(async () => {
    await stack.stop();
    await anvil.stop();
  });

  const submitAndWait = async (key: string, body: Record<string, unknown>) => {
    const submit = await stack.http('POST', '/api/v1/kyt/job', { key, body });
    expect(submit.status).toBe(202);
    return pollUntilDone(stack, key, submit.body.data.request_id);
  };

  test(
    'when a transaction pays a sanctioned address, then KYT screens it ' +
      'HIGH with is_sanctioned 100 and names the recipient',
    async () => {
      const user = await stack.createUser({ credits: 1 });
      const txid = await sendNative({ rpcUrl: anvil.rpcUrl, to: SANCTIONED, valueWei: 2n * 10n ** 18n });

      const polled = await submitAndWait(user.key, { chain: 'ethereum', txid: txid.slice(2) });

      const r = polled.data.response;
      expect(r.api_type).toBe('KYT');
      expect(r.risk_level).toBe('HIGH');
      expect(r.risk_score).toBe(100);
      expect(r.rule_scores.is_sanctioned).toBe(100);
      expect(r.risk_reason).toMatch(new RegExp(`Recipient ${SANCTIONED} is on the OFAC SDN list`));
      expect(r.target_summary.address).toBe(SANCTIONED);
      expect(r.target_summary.balances).toEqual([{ asset: 'ETH', amount: 2, usd: 3342.02 }]);
      expect(
        r.target_summary.tags.some((t: any) => t.type === 'sanctions' && t.display.startsWith('recipient: ')),
      ).toBe(true);
      expect(polled.data.credits_charged).toBe(1);

      const full = await stack.http('GET', `/api/v1/kyt/job/${polled.data.request_id}/fullresponse`, { key: user.key });
      expect(full.body.data.response.transaction).toMatchObject({ hash: txid, status: 'success' });
      expect(full.body.data.response.graph.edges[0]).toEqual({
        from: ANVIL_DEFAULT_ACCOUNT,
        to: SANCTIONED,
        asset: 'ETH',
        amount: (2n * 10n ** 18n).toString(),
        txids: [txid],
        hop: 0,
      });
    },
  );

  test(
    'when an ERC-20 transfer pays a USDT-frozen address, then ' +
      'KYT finds the token recipient and scores the freeze HIGH',
    async () => {
      const user = await stack.createUser({ credits: 1 });
      const token = await deployTestToken(anvil.rpcUrl);
      await mintToken({ rpcUrl: anvil.rpcUrl, token, to: ANVIL_DEFAULT_ACCOUNT, amount: 5_000_000n });
      const txid = await sendToken({ rpcUrl: anvil.rpcUrl, token, to: USDT_FROZEN, amount: 2_500_000n });

      const r = (await submitAndWait(user.key, { chain: 'ethereum', txid })).data.response;

      expect(r.target_summary.address).toBe(USDT_FROZEN);
      expect(r.rule_scores.is_blacklisted).toBe(90);
      expect(r.risk_level).toBe('HIGH');
      expect(r.risk_score).toBeGreaterThanOrEqual(85);
      expect(r.target_summary.balances).toEqual([{ asset: 'USDT', amount: 2.5, usd: 2.5 }]);
    },
  );

  test(
    'when a fresh address with one inflow is screened as KYA, then it stays ' +
      'LOW with the behaviour nudges explained',
    async () => {
      const user = await stack.createUser({ credits: 1 });
      const fresh = '0x000000000000000000000000000000000000beef';
      await sendNative({ rpcUrl: anvil.rpcUrl, to: fresh, valueWei: 10n ** 17n });

      const polled = await submitAndWait(user.key, { chain: 'ethereum', address: fresh });

      const r = polled.data.response;
      expect(r.risk_level).toBe('LOW');
      expect(r.rule_scores).toMatchObject({
        active_duration: 10,
        receive_count: 5,
        address_type: 0,
        tag_score: 0,
        is_sanctioned: 0,
      });
      expect(r.risk_score).toBe(15);
      expect(r.risk_reason).toMatch(/first seen/);
      expect(r.target_summary.balances).toEqual([{ asset: 'ETH', amount: 0.1, usd: 167.1 }]);
    },
  );

  test(
    'when the transaction does not exist, then the job ' + 'fails with TRANSACTION_NOT_FOUND and costs nothing',
    async () => {
      const user = await stack.createUser({ credits: 1 });
      const polled = await submitAndWait(user.key, { chain: 'ethereum', txid: `0x${'12'.repeat(32)}` });
      expect(polled.data.status).toBe('failed');
      expect(polled.data.error.code).toBe('TRANSACTION_NOT_FOUND');
      expect(polled.data.response).toBeUndefined();
      expect(await stack.stores.credits.balance(user.id)).toEqual({ balance: 1, reserved: 0, available: 1, debt: 0 });
    },
  );

  describe('deprecated synchronous endpoints', () => {
    test(
      'when /kya/analyze gets a txid, then the type follows the payload and the answer ' +
        'carries Deprecation and Link',
      async () => {
        const user = await stack.createUser({ credits: 1 });
        const txid = await sendNative({ rpcUrl: anvil.rpcUrl, to: SANCTIONED, valueWei: 1n });

        const res = await stack.http('POST', '/api/v1/kya/analyze', {
          key: user.key,
          body: { chain: 'ethereum', txid },
        });

        expect(res.status).toBe(200);
        expect(res.headers.get('deprecation')).toBe('true');
        expect(res.headers.get('link')).toBe('</api/v1/kyt/job>; rel="successor-version"');
        expect(res.body.success).toBe(true);
        expect(res.body.data).toMatchObject({ api_type: 'KYT', risk_level: 'HIGH', chain: 'ethereum' });
        expect(res.body.data.response_id).not.toBe(res.body.data.request_id);
        expect(await stack.stores.credits.balance(user.id)).toEqual({ balance: 0, reserved: 0, available: 0, debt: 0 });
      },
    );

    test('when /kyt/analyze is called without credits, then 402 like the job endpoint', async () => {
      const user = await stack.createUser({ credits: 0 });
      const res = await stack.http('POST', '/api/v1/kyt/analyze', {
        key: user.key,
        body: { chain: 'ethereum', address: SANCTIONED },
      });
      expect(res.status).toBe(402);
      expect(res.body.code).toBe('INSUFFICIENT_CREDITS');
    });

    test('when the transaction is unknown, then /kyt/analyze answers 422 TRANSACTION_NOT_FOUND', async () => {
      const user = await stack.createUser({ credits: 1 });
      const res = await stack.http('POST', '/api/v1/kyt/analyze', {
        key: user.key,
        body: { chain: 'ethereum', txid: '34'.repeat(32) },
      });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ success: false, code: 'TRANSACTION_NOT_FOUND' });
    });
  });
});
