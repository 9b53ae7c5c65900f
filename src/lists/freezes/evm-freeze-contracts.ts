import type { EvmChain } from '../../screening';
import type { FreezeToken } from './freeze-event';

/**
 * The issuers' own contracts whose freeze events are read on each EVM network (with its endpoint set), as
 * FREEZES_EVM_CONTRACTS may change them. Only a contract the issuer itself runs, and whose freezes are the events
 * evm-freeze-abi.ts decodes, is listed: a freeze is the issuer's statement about an address, a bridge's or another
 * party's token says nothing of the kind.
 *
 * - USDC: Circle's native USDC, its FiatToken contract (events `Blacklisted`, `UnBlacklisted`), at the addresses of
 *   Circle's published list "USDC contract addresses" (developers.circle.com/stablecoins/usdc-contract-addresses).
 * - USDT: Ethereum's TetherToken only, the one EVM contract known here to emit `AddedBlackList` and
 *   `RemovedBlackList`. Tether's later EVM contracts (WithBlockedList, as on Avalanche) freeze with other events
 *   (BlockPlaced, BlockReleased); the USDT on Arbitrum, Optimism, Polygon and Linea came over bridges; Base has no
 *   USDT contract of Tether's. None of them was checked to emit Ethereum's events, so none is read.
 * - BNB Smart Chain: none. Its USDT and USDC are Binance-Peg tokens, which Binance issues against its reserves, so
 *   their freezes are not Tether's or Circle's.
 */
export const ISSUER_FREEZE_CONTRACTS: Readonly<Record<EvmChain, Readonly<Partial<Record<FreezeToken, string>>>>> = {
  ethereum: {
    USDT: '0xdac17f958d2ee523a2206206994597c13d831ec7',
    USDC: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  },
  'binance-smart-chain': {},
  arbitrum: { USDC: '0xaf88d065e77c8cc2239327c5edb3a432268e5831' },
  base: { USDC: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' },
  optimism: { USDC: '0x0b2c639c533813f4aa9d7837caf62653d097ff85' },
  polygon: { USDC: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359' },
  avalanche: { USDC: '0xb97ef9ef8734c71904d8002f8b6bc66dd9c48a6e' },
  linea: { USDC: '0x176211869ca2b568f2a7d4ee941e073a821ee1ff' },
};
