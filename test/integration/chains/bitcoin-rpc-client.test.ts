import { createEsploraBitcoinClient } from '../../../src/screening/chains/bitcoin-client';
import { createBitcoinRpcClient } from '../../../src/screening/chains/bitcoin-rpc-client';
import { ChainConfigurationError, type ChainClient } from '../../../src/screening/chains/chain-client';
import { type BitcoinNode, type SentTransaction, startBitcoinNode } from '../../helpers/btcd';

/**
 * The bitcoin JSON-RPC client against a real btcd on regtest (--txindex --addrindex): transactions built and signed
 * with known keys (bitcoinjs-lib), so every address, value and owner read back is known beforehand.
 */
const signal = () => AbortSignal.timeout(20_000);
const MAINNET_ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

describe('bitcoin JSON-RPC client on btcd regtest', () => {
  let node: BitcoinNode;
  let client: ReturnType<typeof createBitcoinRpcClient>;
  // Alice funds two addresses, then spends both in one transaction to Bob, her change to a third.
  let a1: string;
  let a2: string;
  let bob: string;
  let funding: SentTransaction;
  let payment: SentTransaction;
  let change: string;
  let paymentHeight: number;

  beforeAll(async () => {
    node = await startBitcoinNode({ seed: 'rpc-client-test' });
    client = createBitcoinRpcClient({ rpcUrl: node.rpcUrl, network: 'regtest', requestTimeoutMs: 10_000 });
    const { wallet } = node;
    a1 = wallet.newAddress('alice');
    a2 = wallet.newAddress('alice');
    bob = wallet.newAddress('bob');
    funding = await wallet.fundMany([
      { address: a1, value: 1_000_000n },
      { address: a2, value: 2_500_000n },
    ]);
    await wallet.mine(1);
    payment = await wallet.spend({
      inputs: wallet.utxosOf('alice'),
      outputs: [{ address: bob, value: 3_000_000n }],
      fee: 10_000n,
    });
    change = payment.utxos[1]!.address;
    await wallet.mine(1);
    paymentHeight = await node.rpc<number>('getblockcount');
  }, 60_000);
  afterAll(async () => {
    await node?.stop();
  });

  test(
    'when an address was paid by two inputs of one owner, ' +
      'then its transactions have both input addresses and exact values',
    async () => {
      const { transactions, truncated } = await client.getAddressTransactions!(bob, { limit: 10 }, signal());

      expect(truncated).toBe(false);
      expect(transactions).toHaveLength(1);
      expect(transactions[0]).toEqual({
        txid: payment.txid,
        timestamp: expect.any(Number),
        inputs: [
          { address: a1, value: 1_000_000n },
          { address: a2, value: 2_500_000n },
        ],
        outputs: [
          { address: bob, value: 3_000_000n },
          { address: change, value: 490_000n },
        ],
      });
      expect(node.wallet.ownerOf(change)).toBe('alice');
    },
  );

  test(
    'when an address has more transactions than the limit, ' + 'then it comes newest first and says it was cut',
    async () => {
      const all = await client.getAddressTransactions!(a1, { limit: 10 }, signal());
      const one = await client.getAddressTransactions!(a1, { limit: 1 }, signal());

      expect(all.transactions.map((t) => t.txid)).toEqual([payment.txid, funding.txid]);
      expect(all.truncated).toBe(false);
      expect(one.transactions.map((t) => t.txid)).toEqual([payment.txid]);
      expect(one.truncated).toBe(true);
    },
  );

  test(
    'when the transaction is read by txid, ' + 'then its transfers are the inputs spent and the outputs paid',
    async () => {
      const tx = await client.getTransaction(payment.txid, signal());

      expect(tx).toMatchObject({
        chain: 'bitcoin',
        hash: payment.txid,
        status: 'success',
        blockNumber: BigInt(paymentHeight),
        from: a1,
        to: bob,
      });
      expect(tx?.timestamp).toEqual(expect.any(Number));
      expect(tx?.transfers.map(({ from, to, amount, source }) => ({ from, to, amount, source }))).toEqual([
        { from: a1, to: null, amount: 1_000_000n, source: 'utxo' },
        { from: a2, to: null, amount: 2_500_000n, source: 'utxo' },
        { from: null, to: bob, amount: 3_000_000n, source: 'utxo' },
        { from: null, to: change, amount: 490_000n, source: 'utxo' },
      ]);
    },
  );

  test('when a txid is unknown or malformed, then the answer is null', async () => {
    expect(await client.getTransaction('ab'.repeat(32), signal())).toBeNull();
    expect(await client.getTransaction('not-a-txid', signal())).toBeNull();
  });

  test('when an address never appeared on chain, then it has no transactions, not an error', async () => {
    const fresh = node.wallet.newAddress('nobody');
    expect(await client.getAddressTransactions!(fresh, { limit: 10 }, signal())).toEqual({
      transactions: [],
      truncated: false,
    });
    expect(await client.getAddressTransfers!(fresh, { limit: 10 }, signal())).toEqual({
      transfers: [],
      truncated: false,
    });
  });

  test('when the receiver’s flows are read, then the received sum is split across the inputs by value', async () => {
    const { transfers, truncated } = await client.getAddressTransfers!(bob, { limit: 10 }, signal());

    expect(truncated).toBe(false);
    // 3,000,000 over inputs of 1,000,000 and 2,500,000: floor shares, the 1-sat remainder to the larger input.
    expect(transfers.map(({ direction, counterparty, amount }) => ({ direction, counterparty, amount }))).toEqual([
      { direction: 'in', counterparty: a1, amount: 857_142n },
      { direction: 'in', counterparty: a2, amount: 2_142_858n },
    ]);
  });

  test(
    'when the same transactions are read through the Esplora client, ' + 'then both clients give the same flows',
    async () => {
      const esplora = createEsploraBitcoinClient({
        baseUrl: 'http://esplora.test/api',
        network: 'regtest',
        requestTimeoutMs: 10_000,
        fetch: esploraFromNode(node),
      });
      for (const address of [bob, a1, a2, change]) {
        const fromNode = await client.getAddressTransfers!(address, { limit: 10 }, signal());
        const fromEsplora = await esplora.getAddressTransfers!(address, { limit: 10 }, signal());
        expect(fromNode.transfers).toEqual(fromEsplora.transfers);
        expect(fromNode.transfers.length).toBeGreaterThan(0);
      }
      const sender = await client.getAddressTransfers!(a1, { limit: 10 }, signal());
      expect(sender.transfers.filter((t) => t.txid === payment.txid)).toEqual([
        expect.objectContaining({ direction: 'out', counterparty: bob, amount: 3_000_000n }),
        expect.objectContaining({ direction: 'out', counterparty: change, amount: 490_000n }),
      ]);
    },
  );

  test(
    'when the facts of an address are read, ' + 'then balance, spends and senders come from its transactions',
    async () => {
      const receiver = await client.getAddressFacts(bob, { tokens: [], transferLimit: 10 }, signal());
      const spender = await client.getAddressFacts(a1, { tokens: [], transferLimit: 10 }, signal());

      expect(receiver).toMatchObject({ address: bob, isContract: false, nativeBalance: 3_000_000n, outgoingCount: 0 });
      expect(receiver.transferSummary).toMatchObject({ inboundCount: 1, truncated: false });
      expect(receiver.transferSummary?.firstSeen).toEqual(receiver.transferSummary?.lastSeen);
      expect(receiver.transferSummary?.inboundCounterparties.map((c) => c.address).sort()).toEqual([a1, a2].sort());
      expect(spender).toMatchObject({ nativeBalance: 0n, outgoingCount: 1 });
      expect(await client.transferSource!(signal())).toEqual({ name: 'btcd-addrindex', limitation: null, blindTo: [] });
    },
  );

  test('when a transaction is still in the mempool, then it reads as pending and stays out of the flows', async () => {
    const carol = node.wallet.newAddress('carol');
    const pending = await node.wallet.spend({
      inputs: node.wallet.utxosOf('bob'),
      outputs: [{ address: carol, value: 1_000_000n }],
    });

    const tx = await client.getTransaction(pending.txid, signal());
    const page = await client.getAddressTransactions!(carol, { limit: 10 }, signal());
    const flows = await client.getAddressTransfers!(carol, { limit: 10 }, signal());

    expect(tx).toMatchObject({ status: 'pending', blockNumber: null, timestamp: null, from: bob });
    expect(page.transactions).toEqual([expect.objectContaining({ txid: pending.txid, timestamp: null })]);
    expect(flows.transfers).toEqual([]);
    await node.wallet.mine(1);
    expect((await client.getAddressTransfers!(carol, { limit: 10 }, signal())).transfers).toEqual([
      expect.objectContaining({ txid: pending.txid, direction: 'in', counterparty: bob, amount: 1_000_000n }),
    ]);
  });

  test(
    'when the node refuses the credentials, ' + 'then the error is a configuration error that quotes none of them',
    async () => {
      const url = new URL(node.rpcUrl);
      const wrongPassword = 'wrong-password-0af3c9';
      url.password = wrongPassword;
      const refused = createBitcoinRpcClient({ rpcUrl: url.href, network: 'regtest', requestTimeoutMs: 5_000 });

      const err = await refused.getTransaction(payment.txid, signal()).catch((e: unknown) => e);

      expect(err).toBeInstanceOf(ChainConfigurationError);
      expect(err).toMatchObject({ code: 'CHAIN_UNAVAILABLE', retryable: false });
      const text = `${(err as Error).message}\n${(err as Error).stack}\n${JSON.stringify(err)}`;
      expect((err as Error).message).toContain('HTTP 401');
      for (const secret of [wrongPassword, url.username, decodeURIComponent(new URL(node.rpcUrl).password)])
        expect(text).not.toContain(secret);
      expect(text).not.toContain(Buffer.from(`${url.username}:${wrongPassword}`).toString('base64'));
    },
  );

  test(
    'when a mainnet client is pointed at the regtest node, ' + 'then it refuses with ChainConfigurationError',
    async () => {
      const mainnet: ChainClient = createBitcoinRpcClient({
        rpcUrl: node.rpcUrl,
        network: 'mainnet',
        requestTimeoutMs: 5_000,
      });

      await expect(mainnet.getTransaction(payment.txid, signal())).rejects.toThrow(ChainConfigurationError);
      await expect(
        mainnet.getAddressFacts(MAINNET_ADDRESS, { tokens: [], transferLimit: 5 }, signal()),
      ).rejects.toThrow(/node on regtest, not mainnet/);
      // Its addresses are mainnet's: a regtest one is not even an address to it.
      expect(() => mainnet.normalizeAddress(bob)).toThrow(/not a valid bitcoin address/);
    },
  );
});

/**
 * An Esplora API over the node's own answers (same transactions, Esplora's JSON shape), so the Esplora client's flows
 * can be compared with the RPC client's on identical transactions.
 */
function esploraFromNode(node: BitcoinNode): typeof fetch {
  const sats = (btc: number) => Math.round(btc * 1e8);
  return (async (input: string | URL | Request) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const match = /\/address\/([^/]+)\/txs\/chain$/.exec(url.pathname);
    if (!match) return new Response('not found', { status: 404 });
    type Tx = {
      txid: string;
      blockhash?: string;
      blocktime?: number;
      vin: { coinbase?: string; prevOut?: { addresses?: string[]; value: number } }[];
      vout: { value: number; scriptPubKey: { address?: string } }[];
    };
    const txs = await node.rpc<Tx[]>('searchrawtransactions', [match[1], 1, 0, 25, 1, true]).catch(() => [] as Tx[]);
    const body = txs
      .filter((tx) => tx.blockhash)
      .map((tx) => ({
        txid: tx.txid,
        vin: tx.vin.map((i) => ({
          is_coinbase: Boolean(i.coinbase),
          prevout: i.prevOut ? { scriptpubkey_address: i.prevOut.addresses?.[0], value: sats(i.prevOut.value) } : null,
        })),
        vout: tx.vout.map((o) => ({ scriptpubkey_address: o.scriptPubKey.address, value: sats(o.value) })),
        status: { confirmed: true, block_time: tx.blocktime },
      }));
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
}
