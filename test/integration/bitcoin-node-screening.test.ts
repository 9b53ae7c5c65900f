import { type BitcoinNode, type SentTransaction, startBitcoinNode } from '../helpers/btcd';
import { recordSecret } from '../helpers/run-log';
import { screenJob, startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * KYA and KYT through the whole service (API → Temporal → worker → engine → bitcoin JSON-RPC client) on a real
 * btcd on regtest, with BITCOIN_NETWORK=regtest: the api accepts that network's addresses, and only those.
 */
describe('screening bitcoin from a btcd node (BITCOIN_RPC_URL, BITCOIN_NETWORK=regtest)', () => {
  let node: BitcoinNode;
  let stack: TestStack;
  let a1: string;
  let a2: string;
  let bob: string;
  let payment: SentTransaction;
  let paymentHeight: number;

  beforeAll(async () => {
    node = await startBitcoinNode({ seed: 'bitcoin-node-screening' });
    // The run's last test greps every log line of the run for it: the node's password must never be logged.
    recordSecret(decodeURIComponent(new URL(node.rpcUrl).password));
    const { wallet } = node;
    a1 = wallet.newAddress('alice');
    a2 = wallet.newAddress('alice');
    bob = wallet.newAddress('bob');
    await wallet.fundMany([
      { address: a1, value: 1_500_000n },
      { address: a2, value: 2_000_000n },
    ]);
    await wallet.mine(1);
    payment = await wallet.spend({
      inputs: wallet.utxosOf('alice'),
      outputs: [{ address: bob, value: 3_000_000n }],
      fee: 5_000n,
    });
    await wallet.mine(1);
    paymentHeight = await node.rpc<number>('getblockcount');
    stack = await startTestStack({ env: { BITCOIN_RPC_URL: node.rpcUrl, BITCOIN_NETWORK: 'regtest' } });
  }, 90_000);
  afterAll(async () => {
    await stack?.stop();
    await node?.stop();
  });

  test(
    'when a regtest address is screened (KYA), ' + 'then the job completes with its balance and senders from the node',
    async () => {
      const { polled, full } = await screenJob(stack, { chain: 'bitcoin', address: bob });

      expect(polled.status).toBe('completed');
      expect(polled.response.target_summary.address).toBe(bob);
      expect(polled.response.target_summary.balances).toEqual([
        expect.objectContaining({ asset: 'BTC', amount: 0.03 }),
      ]);
      expect(full.crawl).toMatchObject({ ran: true });
      expect(full.crawl.note).toBeNull();
      expect(full.graph.nodes.map((n: { address: string }) => n.address)).toEqual(
        expect.arrayContaining([bob, a1, a2]),
      );
    },
  );

  test.each([
    ['a mainnet bech32 address', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
    ['a mainnet base58 address', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
    ['a regtest address with a broken checksum', 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt081'],
  ])('when %s is submitted, then the api refuses it with 400 and holds nothing', async (_what, address) => {
    const user = await stack.createUser({ credits: 10 });

    const res = await stack.http('POST', '/api/v1/kyt/job', { key: user.key, body: { chain: 'bitcoin', address } });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      success: false,
      error: {
        code: 'INVALID_PARAMETER',
        details: { parameter: 'address', expected: expect.stringContaining('bcrt1') },
      },
    });
    const credits = await stack.http('GET', '/api/v1/credits/balance', { key: user.key });
    expect(credits.body.data).toMatchObject({ balance: 10, reserved: 0 });
  });

  test('when the regtest payment is screened (KYT), then the job completes with its parties and block', async () => {
    const { polled, full } = await screenJob(stack, { chain: 'bitcoin', txid: payment.txid });

    expect(polled.status).toBe('completed');
    // The payee is the first output's address, the payer the first input's.
    expect(polled.response.target_summary.address).toBe(bob);
    expect(full.transaction).toMatchObject({
      hash: payment.txid,
      status: 'success',
      block_number: String(paymentHeight),
    });
    expect(full.graph.nodes.map((n: { address: string }) => n.address)).toEqual(expect.arrayContaining([a1, bob]));
  });
});
