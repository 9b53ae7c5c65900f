import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getAddressDecoder, getBase58Decoder } from '@solana/kit';
import { ChainUnavailableError, InvalidAddressError } from '../../../src/screening/chains/chain-client';
import { createSolanaClient } from '../../../src/screening/chains/solana-client';
import { startReplayServer, type Cassette, type ReplayServer } from '../../helpers/replay-server';

/** Real JSON-RPC request/response pairs (bmresearch/Solnet, see test/fixtures/chains/SOURCES.md). */
const fixture = (name: string) =>
  JSON.parse(readFileSync(join(__dirname, '../../fixtures/chains/solana/json-rpc', `${name}.json`), 'utf8'));
const rpcCassette = (method: string, params: unknown, body: unknown, extra: Partial<Cassette> = {}): Cassette => ({
  request: { method: 'POST', path: '/solana', rpc: { method, params } },
  response: { body },
  ...extra,
});
/** Served exactly as recorded: the client must send the recorded method and params. */
const recorded = (name: string, extra: Partial<Cassette> = {}) => {
  // GetTransaction2 → GetTransactionRequest2.json + GetTransactionResponse2.json
  const [, base, n] = /^(\D+)(\d*)$/.exec(name)!;
  const request = fixture(`${base}Request${n}`);
  return rpcCassette(request.method, request.params, fixture(`${base}Response${n}`), extra);
};
const result = (value: unknown) => ({ jsonrpc: '2.0', id: 0, result: value });

const VOTE = fixture('GetTransactionResponse').result;
const FAILED = fixture('GetTransactionResponse2').result;
const VOTE_SIG = VOTE.transaction.signatures[0] as string;
const FAILED_SIG = FAILED.transaction.signatures[0] as string;
const SOL = { kind: 'native', symbol: 'SOL', decimals: 9 } as const;
const TX_PARAMS = { encoding: 'json', maxSupportedTransactionVersion: 0 };

/** COMPOSED: a getSignaturesForAddress item built from a recorded transaction's own signature, slot, time and error. */
const signatureItem = (tx: any) => ({
  signature: tx.transaction.signatures[0],
  slot: tx.slot,
  blockTime: tx.blockTime,
  err: tx.meta.err,
  memo: null,
  confirmationStatus: 'finalized',
});

// SYNTHETIC: none of the recorded transactions moves value (a vote and a failed governance call), so the
// balance-difference logic is exercised on a made-up v0 transaction with made-up keys, labelled as such.
const key = (n: number) => getAddressDecoder().decode(new Uint8Array(32).fill(n));
const [A, B, C, ATA_A, ATA_B, MINT] = [key(1), key(2), key(3), key(4), key(5), key(6)] as const;
const SYNTH_SIG = getBase58Decoder().decode(new Uint8Array(64).fill(9));
const SYNTH_FAILED_SIG = getBase58Decoder().decode(new Uint8Array(64).fill(8));
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const tokenBalance = (accountIndex: number, owner: string, amount: string) => ({
  accountIndex,
  mint: MINT,
  owner,
  programId: TOKEN_PROGRAM,
  uiTokenAmount: { amount, decimals: 6, uiAmount: Number(amount) / 1e6, uiAmountString: String(Number(amount) / 1e6) },
});
const SYNTH_TX = {
  blockTime: 1_700_000_000,
  slot: 250_000_000,
  version: 0,
  meta: {
    err: null,
    fee: 5000,
    innerInstructions: [],
    logMessages: [],
    rewards: [],
    status: { Ok: null },
    // A pays the fee, 3 SOL to B and 1 SOL to C (C comes from a lookup table), and 2 tokens to B.
    preBalances: [10_000_000_000, 0, 2_039_280, 2_039_280, 1, 934_087_680, 500],
    postBalances: [5_999_995_000, 3_000_000_000, 2_039_280, 2_039_280, 1, 934_087_680, 1_000_000_500],
    preTokenBalances: [tokenBalance(2, A, '5000000'), tokenBalance(3, B, '0')],
    postTokenBalances: [tokenBalance(2, A, '3000000'), tokenBalance(3, B, '2000000')],
    loadedAddresses: { writable: [C], readonly: [] },
  },
  transaction: {
    message: {
      accountKeys: [A, B, ATA_A, ATA_B, '11111111111111111111111111111111', TOKEN_PROGRAM],
      header: { numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 2, numRequiredSignatures: 1 },
      instructions: [],
      recentBlockhash: key(7),
      addressTableLookups: [],
    },
    signatures: [SYNTH_SIG],
  },
};
const SPL = { kind: 'token', standard: 'spl', contract: MINT, symbol: null, decimals: 6 } as const;
const synthSignatures = (address: string, limit: number) =>
  rpcCassette(
    'getSignaturesForAddress',
    [address, { limit }],
    result([
      {
        signature: SYNTH_SIG,
        slot: 250_000_000,
        blockTime: 1_700_000_000,
        err: null,
        memo: null,
        confirmationStatus: 'finalized',
      },
      {
        signature: SYNTH_FAILED_SIG,
        slot: 249_999_999,
        blockTime: 1_699_999_999,
        err: { InstructionError: [0, { Custom: 1 }] },
        memo: null,
        confirmationStatus: 'finalized',
      },
    ]),
  );
const synthTx = rpcCassette('getTransaction', [SYNTH_SIG, TX_PARAMS], result(SYNTH_TX));

const noDeadline = () => new AbortController().signal;
let server: ReplayServer | undefined;
async function clientFor(cassettes: Cassette[], requestTimeoutMs = 2_000) {
  server = await startReplayServer(cassettes);
  return createSolanaClient({ rpcUrl: `${server.url}/solana`, requestTimeoutMs, ratePerSecond: 1_000 });
}
afterEach(async () => {
  if (server) expect(server.misses).toEqual([]);
  await server?.close();
  server = undefined;
});

describe('Solana client against recorded JSON-RPC pairs', () => {
  test(
    'when fixture addresses are normalised, then they come back unchanged; ' +
      'when they are not 32-byte base58, then InvalidAddressError',
    async () => {
      const client = await clientFor([]);
      for (const a of [
        'hoakwpFB8UoLnPpLC56gsjpY7XbVwaCuRQRMQzN5TVh',
        '4Rf9mGD7FeYknun5JczX5nGLTfQuS1GRjNVfkEMKE92b',
        'Vote111111111111111111111111111111111111111',
        '11111111111111111111111111111111',
      ]) {
        expect(client.normalizeAddress(a)).toBe(a);
      }
      const bad = [
        'hoakwpFB8UoLnPpLC56gsjpY7XbVwaCuRQRMQzN5T',
        'TGJn1wnUYHJbvN88cynZbsAz2EMeZq73yx',
        VOTE_SIG,
        '0x458437be39f3a8bfdbfee7bef93e2c5f632ceff4',
        'hoakwpFB8UoLnPpLC56gsjpY7XbVwaCuRQRMQzN5TV0',
        '',
        'not an address',
      ];
      for (const raw of bad) expect(() => client.normalizeAddress(raw)).toThrow(InvalidAddressError);
    },
  );

  test(
    'when the recorded vote transaction is fetched, ' + 'then it succeeded and its fee alone moved no value',
    async () => {
      const client = await clientFor([recorded('GetTransaction')]);
      expect(await client.getTransaction(VOTE_SIG, noDeadline())).toEqual({
        chain: 'solana',
        hash: VOTE_SIG,
        status: 'success',
        blockNumber: 79700345n,
        timestamp: 1622655364,
        from: 'EvVrzsxoj118sxxSTrcnc9u3fRdQfCc7d4gRzzX6TSqj',
        to: null,
        transfers: [],
      });
    },
  );

  test(
    'when the recorded failed transaction is fetched, ' + 'then it is failed with its slot, time and fee payer',
    async () => {
      const client = await clientFor([recorded('GetTransaction2')]);
      expect(await client.getTransaction(FAILED_SIG, noDeadline())).toEqual({
        chain: 'solana',
        hash: FAILED_SIG,
        status: 'failed',
        blockNumber: 132196637n,
        timestamp: 1651763621,
        from: 'H5pamkZhqFna6stoe79SUt71JiTt34GssgtqoztxX6py',
        to: null,
        transfers: [],
      });
    },
  );

  test('when the signature is unknown, then null; when it is malformed, then null without a request', async () => {
    const unknown = getBase58Decoder().decode(new Uint8Array(64).fill(1));
    const client = await clientFor([rpcCassette('getTransaction', [unknown, TX_PARAMS], result(null))]);
    expect(await client.getTransaction(unknown, noDeadline())).toBeNull();
    expect(await client.getTransaction('not-a-signature', noDeadline())).toBeNull();
    expect(server!.served).toHaveLength(1);
  });

  test(
    'when a transaction moves SOL and an SPL token (synthetic body), then balance differences pair into ' +
      'transfers without the fee',
    async () => {
      const client = await clientFor([synthTx]);
      const tx = await client.getTransaction(SYNTH_SIG, noDeadline());
      expect(tx).toMatchObject({
        status: 'success',
        blockNumber: 250_000_000n,
        timestamp: 1_700_000_000,
        from: A,
        to: B,
      });
      expect(tx?.transfers).toEqual([
        { from: A, to: B, asset: SOL, amount: 3_000_000_000n, source: 'balance-diff', index: 0 },
        { from: A, to: C, asset: SOL, amount: 1_000_000_000n, source: 'balance-diff', index: 1 },
        { from: A, to: B, asset: SPL, amount: 2_000_000n, source: 'balance-diff', index: 2 },
      ]);
    },
  );

  test(
    'when the transfers of an address are read (synthetic page), then failed signatures are skipped and ' +
      'directions follow the address',
    async () => {
      const client = await clientFor([synthSignatures(A, 5), synthSignatures(B, 5), { ...synthTx, times: 2 }]);
      expect(await client.getAddressTransfers!(A, { limit: 5 }, noDeadline())).toEqual({
        truncated: false,
        transfers: [
          {
            txid: SYNTH_SIG,
            timestamp: 1_700_000_000,
            direction: 'out',
            counterparty: B,
            asset: SOL,
            amount: 3_000_000_000n,
          },
          {
            txid: SYNTH_SIG,
            timestamp: 1_700_000_000,
            direction: 'out',
            counterparty: C,
            asset: SOL,
            amount: 1_000_000_000n,
          },
          {
            txid: SYNTH_SIG,
            timestamp: 1_700_000_000,
            direction: 'out',
            counterparty: B,
            asset: SPL,
            amount: 2_000_000n,
          },
        ],
      });
      const forB = await client.getAddressTransfers!(B, { limit: 5 }, noDeadline());
      expect(forB.transfers.map((t) => [t.direction, t.counterparty, t.amount])).toEqual([
        ['in', A, 3_000_000_000n],
        ['in', A, 2_000_000n],
      ]);
    },
  );

  test(
    'when the transfers of the recorded fee payer are read, then the recorded vote transaction yields no transfer ' +
      'and a failed one is not fetched',
    async () => {
      const client = await clientFor([
        rpcCassette(
          'getSignaturesForAddress',
          ['EvVrzsxoj118sxxSTrcnc9u3fRdQfCc7d4gRzzX6TSqj', { limit: 1 }],
          result([signatureItem(VOTE)]),
        ),
        rpcCassette(
          'getSignaturesForAddress',
          ['H5pamkZhqFna6stoe79SUt71JiTt34GssgtqoztxX6py', { limit: 10 }],
          result([signatureItem(FAILED)]),
        ),
        recorded('GetTransaction'),
      ]);
      // A full page (one signature for limit 1) may hide older ones.
      expect(
        await client.getAddressTransfers!('EvVrzsxoj118sxxSTrcnc9u3fRdQfCc7d4gRzzX6TSqj', { limit: 1 }, noDeadline()),
      ).toEqual({ transfers: [], truncated: true });
      expect(
        await client.getAddressTransfers!('H5pamkZhqFna6stoe79SUt71JiTt34GssgtqoztxX6py', { limit: 10 }, noDeadline()),
      ).toEqual({ transfers: [], truncated: false });
      expect(server!.served.filter((s) => s.includes('getTransaction'))).toHaveLength(1);
    },
  );

  test('when the recorded balance is read, then lamports come back exactly as bigint', async () => {
    // COMPOSED: no transactions were recorded for this address; an empty signature page keeps the test on
    // the recorded balance.
    const client = await clientFor([
      recorded('GetBalance'),
      rpcCassette(
        'getSignaturesForAddress',
        ['hoakwpFB8UoLnPpLC56gsjpY7XbVwaCuRQRMQzN5TVh', { limit: 25 }],
        result([]),
      ),
    ]);
    const facts = await client.getAddressFacts(
      'hoakwpFB8UoLnPpLC56gsjpY7XbVwaCuRQRMQzN5TVh',
      { tokens: [], transferLimit: 25 },
      noDeadline(),
    );
    expect(facts).toEqual({
      address: 'hoakwpFB8UoLnPpLC56gsjpY7XbVwaCuRQRMQzN5TVh',
      isContract: false,
      nativeBalance: 168855000000n,
      tokenBalances: [],
      outgoingCount: 0,
      transferSummary: {
        firstSeen: null,
        lastSeen: null,
        inboundCount: 0,
        inboundCounterparties: [],
        truncated: false,
      },
    });
  });

  test(
    'when facts are read for the synthetic sender, then SPL balances sum its token accounts and ' +
      'the transfer summary comes from its page',
    async () => {
      const tokenAccounts = result({
        context: { slot: 250_000_001 },
        value: [
          {
            pubkey: ATA_A,
            account: {
              data: {
                program: 'spl-token',
                parsed: {
                  type: 'account',
                  info: {
                    isNative: false,
                    mint: MINT,
                    owner: A,
                    state: 'initialized',
                    tokenAmount: { amount: '3000000', decimals: 6, uiAmount: 3, uiAmountString: '3' },
                  },
                },
                space: 165,
              },
              executable: false,
              lamports: 2_039_280,
              owner: TOKEN_PROGRAM,
              rentEpoch: 0,
              space: 165,
            },
          },
        ],
      });
      const client = await clientFor([
        rpcCassette('getBalance', [A], result({ context: { slot: 250_000_001 }, value: 5_999_995_000 })),
        rpcCassette('getTokenAccountsByOwner', [A, { mint: MINT }, { encoding: 'jsonParsed' }], tokenAccounts),
        synthSignatures(A, 5),
        synthTx,
      ]);
      const facts = await client.getAddressFacts(A, { tokens: [MINT], transferLimit: 5 }, noDeadline());
      expect(facts).toMatchObject({
        nativeBalance: 5_999_995_000n,
        tokenBalances: [{ asset: SPL, amount: 3_000_000n }],
        outgoingCount: 1,
      });
      expect(facts.transferSummary).toEqual({
        firstSeen: 1_700_000_000,
        lastSeen: 1_700_000_000,
        inboundCount: 0,
        inboundCounterparties: [],
        truncated: false,
      });
    },
  );

  test(
    'when the node sends a u64 above 2^53 (synthetic body), ' +
      'then it arrives exact rather than rounded by JSON.parse',
    async () => {
      // The replay server re-serialises bodies from JS numbers, which cannot hold such a value, so this answer comes
      // from a stub fetch.
      const answers: Record<string, string> = {
        getBalance: '{"context":{"slot":1},"value":9007199254740993}',
        getSignaturesForAddress: '[]',
      };
      const stub: typeof fetch = async (_url, init) => {
        const { id, method } = JSON.parse(String(init?.body));
        return new Response(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${answers[method]}}`);
      };
      const client = createSolanaClient({ rpcUrl: 'http://127.0.0.1:9/solana', requestTimeoutMs: 1_000, fetch: stub });
      expect((await client.getAddressFacts(A, { tokens: [], transferLimit: 1 }, noDeadline())).nativeBalance).toBe(
        9007199254740993n,
      );
    },
  );
});

describe('Solana client under provider faults', () => {
  test('when the node answers 429 with Retry-After once, then the call is retried and succeeds', async () => {
    const client = await clientFor([
      recorded('GetTransaction', {
        times: 1,
        response: { status: 429, body: { error: 'Too many requests' }, headers: { 'retry-after': '0.05' } },
      }),
      recorded('GetTransaction'),
    ]);
    expect((await client.getTransaction(VOTE_SIG, noDeadline()))?.blockNumber).toBe(79700345n);
    expect(client.metrics()).toMatchObject({ retries: 1, rateLimited: 1, failures: 0 });
  });

  test('when every attempt answers 503, then the call ends in ChainUnavailableError', async () => {
    const client = await clientFor([
      recorded('GetTransaction', { response: { status: 503, body: { error: 'unavailable' } } }),
    ]);
    await expect(client.getTransaction(VOTE_SIG, noDeadline())).rejects.toThrow(ChainUnavailableError);
    expect(client.metrics()).toMatchObject({ requests: 4, retries: 3, failures: 1 });
  });

  test('when the node answers a JSON-RPC error, then ChainUnavailableError carries its message', async () => {
    const client = await clientFor([
      recorded('GetTransaction', {
        response: {
          body: {
            jsonrpc: '2.0',
            id: 0,
            error: { code: -32005, message: 'Node is behind by 42 slots', data: { numSlotsBehind: 42 } },
          },
        },
      }),
    ]);
    await expect(client.getTransaction(VOTE_SIG, noDeadline())).rejects.toThrow(/behind by 42 slots/);
    await expect(client.getTransaction(VOTE_SIG, noDeadline())).rejects.toBeInstanceOf(ChainUnavailableError);
  });

  test('when the node never answers, then the crawl deadline ends the call promptly', async () => {
    const client = await clientFor([recorded('GetTransaction', { hang: true })], 30_000);
    const started = Date.now();
    await expect(client.getTransaction(VOTE_SIG, AbortSignal.timeout(300))).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect(Date.now() - started).toBeLessThan(1_300);
  });
});
