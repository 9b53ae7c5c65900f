/**
 * Crawl time and chain calls per job, per chain, against local servers: anvil (ethereum, a scripted
 * sanctioned → A → B → C graph) and the strict replay server with the recorded bitcoin and XRPL answers.
 * Runs the engine directly (no API or Temporal in the measurement). Run: npm run bench:crawl
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import globalSetup from '../test/setup/global-setup';
import globalTeardown from '../test/setup/global-teardown';
import { sendNative, startAnvil } from '../test/helpers/anvil';
import { startReplayServer } from '../test/helpers/replay-server';
import { createPool } from '../src/db/pool';
import { createEsploraBitcoinClient } from '../src/domain/chains/bitcoin-client';
import { createEvmChainClient } from '../src/domain/chains/evm-client';
import { createXrplClient } from '../src/domain/chains/xrpl-client';
import { createScreeningEngine } from '../src/domain/risk/engine';
import { loadPriceBook } from '../src/domain/risk/prices';
import { createReferenceLists } from '../src/domain/risk/reference-lists';
import { loadRiskModel } from '../src/domain/risk/risk-model';
import { readFileSync } from 'node:fs';

const RUNS = Number(process.env.RUNS ?? 20);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const read = (...p: string[]) => JSON.parse(readFileSync(path.join('test', 'fixtures', 'chains', ...p), 'utf8'));

async function main() {
  await globalSetup();
  const pool = createPool(process.env.TEST_DATABASE_URL as string, 4);
  const anvil = await startAnvil();
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
  const xrplPage = (account: string) => ({ request: { method: 'POST' as const, path: '/xrpl', rpc: { method: 'account_tx', params: [{ account, ledger_index_min: -1, ledger_index_max: -1, limit: 50, forward: false }] } },
    response: { body: { result: { account, limit: 50, transactions: [{ meta: payment.meta, tx_json: payment.tx_json, validated: true }], validated: true } } } });
  const replay = await startReplayServer([
    { request: { method: 'GET', path: `/bitcoin/tx/${txIn.txid}` }, response: { body: txIn } },
    { request: { method: 'GET', path: `/bitcoin/address/${RECIPIENT}` }, response: { body: { chain_stats: { funded_txo_sum: 100000000, spent_txo_sum: 0, spent_txo_count: 0, tx_count: 1 } } } },
    { request: { method: 'GET', path: `/bitcoin/address/${RECIPIENT}/txs/chain` }, response: { body: [txIn] } },
    { request: { method: 'GET', path: `/bitcoin/address/${SENDER}/txs/chain` }, response: { body: [txIn] } },
    { request: { method: 'POST', path: '/xrpl', rpc: { method: 'account_info', params: [{ account: 'r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59', ledger_index: 'validated' }] } }, response: { body: { result: accountInfo } } },
    xrplPage('r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59'),
    xrplPage('rMH4UxPrbuMa1spCBR98hLLyNJp4d8p4tM'),
  ]);

  const clients = {
    ethereum: createEvmChainClient({ chain: 'ethereum', rpcUrl: anvil.rpcUrl, requestTimeoutMs: 5000 }),
    bitcoin: createEsploraBitcoinClient({ baseUrl: `${replay.url}/bitcoin`, requestTimeoutMs: 5000, ratePerSecond: 1000 }),
    ripple: createXrplClient({ rpcUrl: `${replay.url}/xrpl`, requestTimeoutMs: 5000, ratePerSecond: 1000 }),
  };
  const engine = createScreeningEngine({
    lists: createReferenceLists(pool),
    chainClients: clients,
    prices: loadPriceBook('data/prices/usd-reference-prices.json'),
    model: loadRiskModel('data/risk'),
  });
  const jobs = [
    ['ethereum KYA (3 hops to a sanction)', { apiType: 'KYA', chain: 'ethereum', target: C.toLowerCase(), maxDepth: 4 }],
    ['bitcoin KYT (Esplora replay)', { apiType: 'KYT', chain: 'bitcoin', target: txIn.txid, maxDepth: 3 }],
    ['ripple KYA (rippled replay)', { apiType: 'KYA', chain: 'ripple', target: 'r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59', maxDepth: 4 }],
  ] as const;
  console.log(`runs per job=${RUNS}`);
  for (const [name, req] of jobs) {
    const total: number[] = [];
    const crawl: number[] = [];
    let calls = 0;
    let nodes = 0;
    for (let i = 0; i < RUNS; i++) {
      const r = await engine.analyze({ ...req, crawlTimeoutMs: 8000 }, AbortSignal.timeout(8000));
      total.push(r.full.performance.analysis_ms);
      crawl.push(r.full.performance.crawl_ms ?? 0);
      calls = r.full.performance.crawl_requests ?? 0;
      nodes = r.full.performance.nodes_visited ?? 0;
    }
    console.log(`${name.padEnd(38)} analysis p50=${pct(total, 50)}ms p95=${pct(total, 95)}ms  crawl p50=${pct(crawl, 50)}ms  crawl calls/job=${calls} nodes/job=${nodes}`);
  }
  console.log(`HTTP requests: bitcoin=${clients.bitcoin.metrics().requests / RUNS}/job ripple=${clients.ripple.metrics().requests / RUNS}/job (replay misses: ${replay.misses.length})`);
  await replay.close();
  await anvil.stop();
  await pool.end();
  await globalTeardown();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
