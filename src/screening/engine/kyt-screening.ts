import type { Chain } from '../chains/chain';
import type { ChainClient, ChainTransaction } from '../chains/chain-client';
import { ChainConfigurationError } from '../chains/chain-client';
import { AppError } from '../../platform/errors';
import { type AnalysisRun, type Findings, type Holding, isDeadline } from './analysis-run';
import { readAddressFacts, screenParties } from './kya-screening';
import { SCREENING_ERRORS } from '../error-codes';

export class TransactionNotFoundError extends AppError {
  constructor(
    readonly chain: Chain,
    readonly txid: string,
  ) {
    super(SCREENING_ERRORS.TRANSACTION_NOT_FOUND, `transaction ${txid} was not found on ${chain}`);
  }
}

/** The deadline (crawlTimeout) ran out before anything could be screened: the chain did not answer in time. */
export class AnalysisDeadlineError extends AppError {
  constructor(message: string) {
    super(SCREENING_ERRORS.CHAIN_UNAVAILABLE, message, { retryable: false });
  }
}

/**
 * KYT: reads the transaction, screens every party (sender, recipient, token senders and recipients) and reports on
 * the beneficiary, whose own facts it reads too; the transfers are valued at the block's time.
 */
export async function screenTransaction(run: AnalysisRun): Promise<Findings> {
  const { input, client, signal } = run;
  if (!client)
    throw new ChainConfigurationError(
      input.chain,
      `KYT on ${input.chain} needs on-chain data, which this deployment cannot read`,
    );
  const t0 = run.now();
  const tx = await readTransaction(client, run);
  const subject = beneficiary(tx);
  const facts = await readAddressFacts(client, subject, signal);
  const chainMs = run.now() - t0;
  const screened = await screenParties(run, { subject, tx, facts, roles: partiesOf(tx) });
  return {
    ...screened,
    holdings: sumByAsset(tx.transfers),
    valuedAt: tx.timestamp ? tx.timestamp * 1000 : null,
    chainMs,
  };
}

async function readTransaction(client: ChainClient, { input, signal }: AnalysisRun): Promise<ChainTransaction> {
  let tx: ChainTransaction | null;
  try {
    tx = await client.getTransaction(input.target, signal);
  } catch (err) {
    if (isDeadline(signal))
      throw new AnalysisDeadlineError('crawlTimeout elapsed before the transaction could be read');
    throw err;
  }
  if (!tx) throw new TransactionNotFoundError(input.chain, input.target);
  return tx;
}

/** Every address the transaction moves value between, with its roles in it. */
function partiesOf(tx: ChainTransaction): Map<string, string[]> {
  const roles = new Map<string, string[]>();
  const add = (address: string | null, role: string) => {
    if (!address) return;
    const list = roles.get(address) ?? [];
    if (!list.includes(role)) list.push(role);
    roles.set(address, list);
  };
  const tokenContracts = new Set(
    tx.transfers.filter((t) => t.asset.kind === 'token').map((t) => (t.asset as { contract: string }).contract),
  );
  add(tx.from, 'sender');
  add(tx.to, tx.to && tokenContracts.has(tx.to) ? 'token contract' : 'recipient');
  for (const t of tx.transfers.filter((x) => x.source === 'log')) {
    add(t.from, 'token sender');
    add(t.to, 'token recipient');
  }
  return roles;
}

/** KYT reports on the beneficiary: the recipient of the largest token transfer, else the tx recipient. */
function beneficiary(tx: ChainTransaction): string {
  const tokenTransfer = tx.transfers
    .filter((t) => t.source === 'log' && t.to)
    .sort((a, b) => (b.amount > a.amount ? 1 : -1))[0];
  return tokenTransfer?.to ?? tx.to ?? tx.from;
}

/** The transaction's transfers summed per asset (the native coin, each token contract). */
function sumByAsset(items: Holding[]): Holding[] {
  const byKey = new Map<string, Holding>();
  for (const i of items) {
    const key = i.asset.kind === 'native' ? 'native' : i.asset.contract;
    const prev = byKey.get(key);
    byKey.set(key, { asset: i.asset, amount: (prev?.amount ?? 0n) + i.amount });
  }
  return [...byKey.values()];
}
