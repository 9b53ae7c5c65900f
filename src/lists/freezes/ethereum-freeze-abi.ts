import { parseAbi } from 'viem';
import type { FreezeEvent, FreezeToken } from './freeze-event';

/**
 * Tether's TetherToken (0xdac17f…1ec7): the address is not indexed, so it is in the log's data, not a topic.
 * `uint` in Tether's source is uint256, which the topic hash spells out.
 */
const USDT_EVENTS = parseAbi([
  'event AddedBlackList(address _user)',
  'event RemovedBlackList(address _user)',
  'event DestroyedBlackFunds(address _blackListedUser, uint256 _balance)',
]);

/** Circle's FiatTokenV2 (0xa0b869…eb48), Blacklistable: the address is an indexed topic. */
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
