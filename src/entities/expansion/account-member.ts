import type { AddressTransfer, ChainClient } from '../../screening';
import type { ClusterLink } from '../domain/cluster-link';
import { depositForward } from '../domain/deposit-address';
import type { CallBudget } from './call-budget';
import type { ExpandMember } from './member-expansion';

type AccountClient = ChainClient & Required<Pick<ChainClient, 'getAddressTransfers'>>;

/**
 * A member is checked as a hot wallet (its senders read as candidate deposit addresses) only when at least this
 * many distinct addresses paid it: one sender makes it a deposit candidate, not a collector. The budget bounds the
 * reads whatever the count.
 */
export const MIN_SENDERS_FOR_HOT_WALLET = 2;

/**
 * Account chains (EVM and others with getAddressTransfers): the deposit-address heuristic, both ways.
 * - As a deposit address: when the member forwards everything to one address H (depositForward), it is linked to H,
 *   unless H is itself deposit-shaped (a customer paying all of a wallet into an exchange deposit address must not
 *   become the exchange) or a contract (a pool, a bridge, a mixer such as Tornado Cash: every depositor would merge
 *   with it, and with each other).
 * - As a hot wallet: when the member is not a deposit address and not a contract, and several addresses paid it,
 *   the senders not read yet are read (one call each, while the budget lasts); those that are its deposit addresses
 *   are linked to it. Senders left unread mark the member truncated, so its cluster stays partial.
 * Reads are kept for the run: the hot wallet read to vet a link is the one its own expansion uses next.
 */
/** The distinct addresses that paid `address` something (zero-amount transfers are address poisoning, not payments). */
function distinctSenders(address: string, transfers: AddressTransfer[]): string[] {
  return [
    ...new Set(
      transfers
        .filter((t) => t.direction === 'in' && t.amount > 0n && t.counterparty !== address)
        .map((t) => t.counterparty),
    ),
  ];
}

export function accountMemberExpander(
  client: AccountClient,
  budget: CallBudget,
  pageLimit: number,
  unread: (addresses: string[]) => Promise<string[]>,
  isLabelledExchange: (address: string) => Promise<boolean>,
): ExpandMember {
  const transfers = new Map<string, { transfers: AddressTransfer[]; truncated: boolean }>();
  const contracts = new Map<string, boolean>();

  const read = async (address: string) => {
    const known = transfers.get(address);
    if (known) return known;
    const page = await budget.spend((signal) => client.getAddressTransfers(address, { limit: pageLimit }, signal));
    if (page) transfers.set(address, page);
    return page;
  };

  // A client without getAddressFacts (a test double) cannot tell: the address is taken for an ordinary account.
  const isContract = async (address: string): Promise<boolean | undefined> => {
    const known = contracts.get(address);
    if (known !== undefined) return known;
    if (typeof client.getAddressFacts !== 'function') return false;
    const facts = await budget.spend((signal) =>
      client.getAddressFacts(address, { tokens: [], transferLimit: 0 }, signal),
    );
    if (facts) contracts.set(address, facts.isContract);
    return facts?.isContract;
  };

  return async (member) => {
    const own = await read(member);
    if (!own) return null;
    const links: ClusterLink[] = [];
    const found = depositForward(member, own.transfers);
    if (found) {
      const hot = await read(found.hotWallet);
      if (!hot) return null;
      // A hot wallet collects from many deposit addresses, or is a labelled exchange: an unlabelled address paid by
      // this one alone is the next hop of a pass-through (a peel or a forward), and is not joined to it.
      const collects =
        distinctSenders(found.hotWallet, hot.transfers).length >= MIN_SENDERS_FOR_HOT_WALLET ||
        (await isLabelledExchange(found.hotWallet));
      if (collects && depositForward(found.hotWallet, hot.transfers) === null) {
        const contract = await isContract(found.hotWallet);
        if (contract === undefined) return null;
        if (!contract) links.push({ a: member, b: found.hotWallet, heuristic: 'deposit_address', txid: found.txid });
      }
      return { links, read: [{ address: member, truncated: own.truncated }] };
    }

    const senders = distinctSenders(member, own.transfers);
    if (senders.length < MIN_SENDERS_FOR_HOT_WALLET)
      return { links, read: [{ address: member, truncated: own.truncated }] };
    const contract = await isContract(member);
    if (contract === undefined) return { links, read: [{ address: member, truncated: true }] };
    if (contract) return { links, read: [{ address: member, truncated: own.truncated }] };

    const deposits: { address: string; truncated: boolean }[] = [];
    let cut = false;
    for (const sender of await unread(senders)) {
      const theirs = await read(sender);
      if (!theirs) {
        cut = true;
        break;
      }
      const forward = depositForward(sender, theirs.transfers);
      if (forward?.hotWallet !== member) continue;
      links.push({ a: sender, b: member, heuristic: 'deposit_address', txid: forward.txid });
      deposits.push({ address: sender, truncated: theirs.truncated });
    }
    return { links, read: [...deposits, { address: member, truncated: own.truncated || cut }] };
  };
}
