import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sendNative, startAnvil } from '../../test/helpers/anvil';
import { startReplayServer } from '../../test/helpers/replay-server';
import type { Chain } from '../../src/screening/chains/chain';
import type { ChainClient } from '../../src/screening/chains/chain-client';
import { createEsploraBitcoinClient } from '../../src/screening/chains/bitcoin-client';
import { createEvmChainClient } from '../../src/screening/chains/evm-client';
import { createSolanaClient } from '../../src/screening/chains/solana-client';
import { createTronClient } from '../../src/screening/chains/tron-client';
import { createXrplClient } from '../../src/screening/chains/xrpl-client';

const read = (...p: string[]) => JSON.parse(readFileSync(path.join('test', 'fixtures', 'chains', ...p), 'utf8'));

export interface CrawlJob {
  name: string;
  request: { apiType: 'KYA' | 'KYT'; chain: Chain; target: string; maxDepth: number };
}

export interface CrawlScenarios {
  clients: Partial<Record<Chain, ChainClient>>;
  jobs: CrawlJob[];
  /**
   * One bare request per chain to the same server the client calls (a recorded answer or anvil): the cost of a chain
   * call without the engine.
   */
  rawCall: Record<string, () => Promise<void>>;
  /** Requests the strict replay server could not match (must stay empty). */
  misses(): string[];
  close(): Promise<void>;
}

/**
 * The chains of P7 on local servers: anvil as ethereum (a scripted sanctioned → A → B → C graph) and
 * the strict replay server with the recorded bitcoin, XRPL, TronGrid and Solana answers (tron and
 * solana pages nobody recorded are composed from the real bodies, as in
 * test/integration/chains-e2e-tron-solana.test.ts).
 */
export async function startCrawlScenarios(): Promise<CrawlScenarios> {
  // Chain id 1: the EVM client refuses a node that is not on the chain it screens.
  const anvil = await startAnvil({ chainId: 1 });
  const SANCTIONED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';
  const [A, B, C] = [0, 0, 0].map(() => `0x${randomBytes(20).toString('hex')}`) as [string, string, string];
  await sendNative({ rpcUrl: anvil.rpcUrl, from: SANCTIONED, to: A, valueWei: 10n ** 19n });
  await sendNative({ rpcUrl: anvil.rpcUrl, from: A, to: B, valueWei: 5n * 10n ** 18n });
  await sendNative({ rpcUrl: anvil.rpcUrl, from: B, to: C, valueWei: 2n * 10n ** 18n });

  const txIn = read('bitcoin', 'esplora', 'tx_19c6cd6b7b8a91e1a63d759eedd2818877a624771d38e00c3ffcedfdd09afc50.json');
  const RECIPIENT = '2NEhVzd2Lom5g7ZF5K1qYrgZLpXecniqHcE';
  const SENDER = 'tb1q2ajf7llsxvff7r0fpm42tmd5nz43cr8mg85f3788rm4cy7uwajdsusr2mg';
  const payment = read('ripple', 'rippled', 'tx__payment.json').result;
  const accountInfo = read('ripple', 'rippled', 'accountInfo.json').result;
  const xrplPage = (account: string) => ({
    request: {
      method: 'POST' as const,
      path: '/xrpl',
      rpc: {
        method: 'account_tx',
        params: [{ account, ledger_index_min: -1, ledger_index_max: -1, limit: 50, forward: false }],
      },
    },
    response: {
      body: {
        result: {
          account,
          limit: 50,
          transactions: [{ meta: payment.meta, tx_json: payment.tx_json, validated: true }],
          validated: true,
        },
      },
    },
  });

  // Tron: WALLET's real transfers; the FullNode tx bodies, OTHER's transfers and the sources' pages are
  // COMPOSED from the real TronGrid items (see chains-e2e-tron-solana.test.ts).
  const tronItem = (name: string) => read('tron', 'trongrid-v1', `account-transactions__${name}.json`);
  const [NATIVE, NATIVE_NO_TS, TRC10, TRC20_CALL, SWAP, FAILED] = [
    'native-transfer',
    'native-transfer-without-timestamp',
    'trc10-transfer',
    'trc20-transfer',
    'swap-transaction',
    'failed-transaction',
  ].map(tronItem);
  const TRC20_PAGE = read('tron', 'trongrid-v1', 'account-trc20-transactions__contract-info.json');
  const [WALLET, OTHER] = ['TGJn1wnUYHJbvN88cynZbsAz2EMeZq73yx', 'TEFik7dGm6r5Y1Af9mGwnELuJLa1jXDDUB'];
  const envelope = (data: unknown[]) => ({ data, success: true, meta: { at: 1774455500000, page_size: data.length } });
  const tronGet = (p: string, query: Record<string, string> | undefined, body: unknown) => ({
    request: { method: 'GET' as const, path: `/tron${p}`, query },
    response: { body },
  });
  const tronPages = (address: string, limit: number, native: unknown, trc20: unknown) => [
    tronGet(`/v1/accounts/${address}/transactions`, { limit: String(limit), order_by: 'block_timestamp,desc' }, native),
    tronGet(`/v1/accounts/${address}/transactions/trc20`, { limit: String(limit) }, trc20),
  ];
  const tronCassettes = [
    {
      request: { method: 'POST' as const, path: '/tron/wallet/gettransactionbyid' },
      response: {
        body: {
          ret: [{ contractRet: 'SUCCESS' }],
          signature: NATIVE.signature,
          txID: NATIVE.txID,
          raw_data: NATIVE.raw_data,
          raw_data_hex: NATIVE.raw_data_hex,
        },
      },
    },
    {
      request: { method: 'POST' as const, path: '/tron/wallet/gettransactioninfobyid' },
      response: {
        body: {
          id: NATIVE.txID,
          fee: NATIVE.ret[0].fee,
          blockNumber: NATIVE.blockNumber,
          blockTimeStamp: NATIVE.block_timestamp,
          receipt: { net_fee: NATIVE.net_fee },
        },
      },
    },
    tronGet(
      `/v1/accounts/${WALLET}`,
      undefined,
      envelope([
        {
          address: '41458437be39f3a8bfdbfee7bef93e2c5f632ceff4',
          balance: 4_196_409_173,
          create_time: 1_755_000_000_000,
        },
      ]),
    ), // SYNTHETIC values
    tronGet(`/v1/accounts/${OTHER}`, undefined, envelope([{ address: '412efffc7686e54ab669a1cdb1e2cc17cf4b4eca96' }])),
    ...[25, 50].flatMap((limit) => [
      ...tronPages(WALLET, limit, envelope([NATIVE_NO_TS, TRC10, TRC20_CALL, NATIVE]), TRC20_PAGE),
      ...tronPages(OTHER, limit, envelope([FAILED, SWAP, NATIVE]), envelope([TRC20_PAGE.data[0]])),
    ]),
    ...tronPages('TMh7tFe4TWSbT587YMaRYZ9NQUwWi1LbeM', 50, envelope([NATIVE_NO_TS]), envelope([])),
    ...tronPages('TEkrCfpcY8qGzRdSackqNWd5G5MUvAT1cX', 50, envelope([TRC10]), envelope([])),
    ...tronPages('TMxxHG5PRVakKwNCvTWDb73gPwXvkZAhpm', 50, envelope([]), envelope([TRC20_PAGE.data[1]])),
    ...tronPages('TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', 50, envelope([]), envelope([TRC20_PAGE.data[2]])),
  ];
  // Solana: the recorded vote transaction; its fee payer's balance and signature page are COMPOSED from it.
  const voteRequest = read('solana', 'json-rpc', 'GetTransactionRequest.json');
  const vote = read('solana', 'json-rpc', 'GetTransactionResponse.json');
  const VOTE_SIG = vote.result.transaction.signatures[0] as string;
  const FEE_PAYER = vote.result.transaction.message.accountKeys[0] as string;
  const solRpc = (method: string, params: unknown, body: unknown) => ({
    request: { method: 'POST' as const, path: '/solana', rpc: { method, params } },
    response: { body },
  });
  const voteSignature = {
    signature: VOTE_SIG,
    slot: vote.result.slot,
    blockTime: vote.result.blockTime,
    err: null,
    memo: null,
    confirmationStatus: 'finalized',
  };
  const solanaCassettes = [
    solRpc(voteRequest.method, voteRequest.params, vote),
    solRpc('getBalance', [FEE_PAYER], {
      jsonrpc: '2.0',
      id: 0,
      result: { context: { slot: vote.result.slot }, value: vote.result.meta.postBalances[0] },
    }),
    ...[25, 50].map((limit) =>
      solRpc('getSignaturesForAddress', [FEE_PAYER, { limit }], { jsonrpc: '2.0', id: 0, result: [voteSignature] }),
    ),
  ];

  const replay = await startReplayServer([
    { request: { method: 'GET', path: `/bitcoin/tx/${txIn.txid}` }, response: { body: txIn } },
    {
      request: { method: 'GET', path: `/bitcoin/address/${RECIPIENT}` },
      response: {
        body: { chain_stats: { funded_txo_sum: 100000000, spent_txo_sum: 0, spent_txo_count: 0, tx_count: 1 } },
      },
    },
    { request: { method: 'GET', path: `/bitcoin/address/${RECIPIENT}/txs/chain` }, response: { body: [txIn] } },
    { request: { method: 'GET', path: `/bitcoin/address/${SENDER}/txs/chain` }, response: { body: [txIn] } },
    {
      request: {
        method: 'POST',
        path: '/xrpl',
        rpc: {
          method: 'account_info',
          params: [{ account: 'r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59', ledger_index: 'validated' }],
        },
      },
      response: { body: { result: accountInfo } },
    },
    xrplPage('r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59'),
    xrplPage('rMH4UxPrbuMa1spCBR98hLLyNJp4d8p4tM'),
    ...tronCassettes,
    ...solanaCassettes,
  ]);

  const clients = {
    ethereum: createEvmChainClient({ chain: 'ethereum', rpcUrl: anvil.rpcUrl, requestTimeoutMs: 5000 }),
    bitcoin: createEsploraBitcoinClient({
      baseUrl: `${replay.url}/bitcoin`,
      requestTimeoutMs: 5000,
      ratePerSecond: 1000,
    }),
    ripple: createXrplClient({ rpcUrl: `${replay.url}/xrpl`, requestTimeoutMs: 5000, ratePerSecond: 1000 }),
    tron: createTronClient({ apiUrl: `${replay.url}/tron`, requestTimeoutMs: 5000, ratePerSecond: 1000 }),
    solana: createSolanaClient({ rpcUrl: `${replay.url}/solana`, requestTimeoutMs: 5000, ratePerSecond: 1000 }),
  };

  const rpc = async (url: string, method: string, params: unknown) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${method} answered ${res.status}`);
  };
  const get = async (url: string) => {
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
  };
  const rawCall = {
    ethereum: () => rpc(anvil.rpcUrl, 'eth_getBalance', [C, 'latest']),
    bitcoin: () => get(`${replay.url}/bitcoin/address/${RECIPIENT}`),
    ripple: () =>
      rpc(`${replay.url}/xrpl`, 'account_info', [
        { account: 'r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59', ledger_index: 'validated' },
      ]),
    tron: () => get(`${replay.url}/tron/v1/accounts/${WALLET}`),
    solana: () => rpc(`${replay.url}/solana`, 'getBalance', [FEE_PAYER]),
  };
  const jobs: CrawlJob[] = (
    [
      [
        'ethereum KYA (3 hops to a sanction)',
        { apiType: 'KYA', chain: 'ethereum', target: C.toLowerCase(), maxDepth: 4 },
      ],
      ['bitcoin KYT (Esplora replay)', { apiType: 'KYT', chain: 'bitcoin', target: txIn.txid, maxDepth: 3 }],
      [
        'ripple KYA (rippled replay)',
        { apiType: 'KYA', chain: 'ripple', target: 'r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59', maxDepth: 4 },
      ],
      ['tron KYA (TronGrid replay)', { apiType: 'KYA', chain: 'tron', target: WALLET, maxDepth: 4 }],
      ['tron KYT (TronGrid replay)', { apiType: 'KYT', chain: 'tron', target: NATIVE.txID, maxDepth: 3 }],
      ['solana KYA (Solana RPC replay)', { apiType: 'KYA', chain: 'solana', target: FEE_PAYER, maxDepth: 4 }],
      ['solana KYT (Solana RPC replay)', { apiType: 'KYT', chain: 'solana', target: VOTE_SIG, maxDepth: 3 }],
    ] as const
  ).map(([name, request]) => ({ name, request }));
  return {
    clients,
    jobs,
    rawCall,
    misses: () => replay.misses,
    async close() {
      await replay.close();
      await anvil.stop();
    },
  };
}
