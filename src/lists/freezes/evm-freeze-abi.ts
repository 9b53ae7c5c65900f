import { parseAbi } from 'viem';
import type { FreezeEvent, FreezeToken } from './freeze-event';

/**
 * Tether's TetherToken on Ethereum (0xdac17f…1ec7): the address is not indexed, so it is in the log's data, not a
 * topic. `uint` in Tether's source is uint256, which the topic hash spells out. Tether's later EVM contracts name
 * their freezes otherwise (BlockPlaced, BlockReleased): not these, so not read (evm-freeze-contracts.ts).
 */
const USDT_EVENTS = parseAbi([
  'event AddedBlackList(address _user)',
  'event RemovedBlackList(address _user)',
  'event DestroyedBlackFunds(address _blackListedUser, uint256 _balance)',
]);

/**
 * Circle's FiatToken (0xa0b869…eb48 on Ethereum), Blacklistable: the address is an indexed topic. Circle's native
 * USDC on the other EVM networks is the same FiatToken contract, with the same two events (evm-freeze-contracts.ts).
 */
const USDC_EVENTS = parseAbi([
  'event Blacklisted(address indexed _account)',
  'event UnBlacklisted(address indexed _account)',
]);

export const FREEZE_EVENTS = { USDT: USDT_EVENTS, USDC: USDC_EVENTS } as const satisfies Record<FreezeToken, unknown>;

/** Which freeze each event name means. */
export const FREEZE_KINDS: Record<string, FreezeEvent['kind']> = {
  AddedBlackList: 'add',
  RemovedBlackList: 'remove',
  DestroyedBlackFunds: 'destroy',
  Blacklisted: 'add',
  UnBlacklisted: 'remove',
};
