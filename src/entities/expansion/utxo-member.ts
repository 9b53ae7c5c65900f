import type { ChainClient, UtxoTransaction } from '../../screening';
import { commonInputLinks } from '../domain/common-input';
import type { CallBudget } from './call-budget';
import type { ExpandMember } from './member-expansion';

type UtxoClient = ChainClient & Required<Pick<ChainClient, 'getAddressTransactions'>>;

/**
 * Bitcoin and the other UTXO networks: one call reads the member's recent transactions; those it spent from (it is
 * an input) give common-input links, CoinJoins (judged with the chain's `dust`) none. Transactions that only paid
 * it say nothing about who owns it.
 */
export function utxoMemberExpander(
  client: UtxoClient,
  budget: CallBudget,
  pageLimit: number,
  dust: bigint,
): ExpandMember {
  return async (member) => {
    const page = await budget.spend((signal) => client.getAddressTransactions(member, { limit: pageLimit }, signal));
    if (!page) return null;
    const spentFrom = (tx: UtxoTransaction) => tx.inputs.some((i) => i.address === member);
    return {
      links: page.transactions.filter(spentFrom).flatMap((tx) => commonInputLinks(tx, dust)),
      read: [{ address: member, truncated: page.truncated }],
    };
  };
}
