import { depositForward } from '../../src/entities/domain/deposit-address';
import type { AddressTransfer } from '../../src/screening';

const ETH = { kind: 'native', symbol: 'ETH', decimals: 18 } as const;
const USDT = {
  kind: 'token',
  standard: 'erc20',
  contract: '0xdac17f958d2ee523a2206206994597c13d831ec7',
  symbol: 'USDT',
  decimals: 6,
} as const;
const T0 = 1_700_000_000;
const HOUR = 3_600;
const D = '0xdeposit';
const H = '0xhotwallet';

let n = 0;
const move = (
  direction: 'in' | 'out',
  counterparty: string,
  amount: bigint,
  at: number,
  asset: AddressTransfer['asset'] = ETH,
  txid = `0xtx${n++}`,
): AddressTransfer => ({ txid, timestamp: at, direction, counterparty, asset, amount });

describe('deposit-address heuristic', () => {
  test('when 2 customers pay in and one sweep forwards 99.9 % to H within an hour, then H is the hot wallet', () => {
    const sweep = move('out', H, 2_997_000_000_000_000_000n, T0 + HOUR, ETH, '0xsweep');
    // Newest first, as clients return them.
    const transfers = [
      sweep,
      move('in', '0xcustomer2', 2_000_000_000_000_000_000n, T0 + 600),
      move('in', '0xcustomer1', 1_000_000_000_000_000_000n, T0),
    ];
    expect(depositForward(D, transfers)).toEqual({ hotWallet: H, txid: '0xsweep', forwardedShare: 0.999 });
  });

  test('when each of several deposits is swept in turn, then the earliest sweep is the evidence', () => {
    const transfers = [
      move('in', '0xc1', 500_000_000n, T0, USDT),
      move('out', H, 500_000_000n, T0 + 900, USDT, '0xsweep1'),
      move('in', '0xc1', 250_000_000n, T0 + 10 * 86_400, USDT),
      move('out', H, 250_000_000n, T0 + 10 * 86_400 + 300, USDT, '0xsweep2'),
    ];
    expect(depositForward(D, transfers)).toEqual({ hotWallet: H, txid: '0xsweep1', forwardedShare: 1 });
  });

  test('when an ordinary wallet pays 2 people, then it is not a deposit address', () => {
    const transfers = [
      move('in', '0xemployer', 5_000_000_000n, T0, USDT),
      move('out', '0xlandlord', 2_000_000_000n, T0 + HOUR, USDT),
      move('out', '0xgrocer', 2_990_000_000n, T0 + 2 * HOUR, USDT),
    ];
    expect(depositForward(D, transfers)).toBeNull();
  });

  test('when the forward comes 30 days after the receipt, then it is not a deposit address', () => {
    const transfers = [move('in', '0xc1', 1_000_000n, T0, USDT), move('out', H, 1_000_000n, T0 + 30 * 86_400, USDT)];
    expect(depositForward(D, transfers)).toBeNull();
  });

  test('when the address only ever receives, then it is not a deposit address', () => {
    expect(depositForward(D, [move('in', '0xc1', 1n, T0), move('in', '0xc2', 2n, T0 + 1)])).toBeNull();
    expect(depositForward(D, [])).toBeNull();
  });

  test('when a forward carries only half of what arrived, then it is not a deposit address', () => {
    const transfers = [move('in', '0xc1', 1_000_000n, T0, USDT), move('out', H, 500_000n, T0 + HOUR, USDT)];
    expect(depositForward(D, transfers)).toBeNull();
  });

  test('when everything it received came from H itself, then nothing came from outside', () => {
    const transfers = [move('in', H, 1_000_000n, T0, USDT), move('out', H, 1_000_000n, T0 + HOUR, USDT)];
    expect(depositForward(D, transfers)).toBeNull();
    expect(depositForward(D, transfers, { minInbound: 0 })?.hotWallet).toBe(H);
  });

  test(
    'when the address sends to a pool and gets another token back in the same transaction (a swap), ' +
      'then it is no deposit',
    () => {
      const transfers = [
        move('in', '0xfriend', 1_000_000n, T0, USDT),
        move('out', '0xpool', 1_000_000n, T0 + 60, USDT, '0xswap'),
        move('in', '0xpool', 400_000_000_000_000n, T0 + 60, ETH, '0xswap'),
      ];
      expect(depositForward(D, transfers)).toBeNull();
    },
  );

  test(
    'when spam tokens, gas top-ups and zero-value poisoning transfers surround the sweep, ' + 'then H is still found',
    () => {
      const SPAM = { kind: 'token', standard: 'erc20', contract: '0xspam', symbol: null, decimals: null } as const;
      const transfers = [
        move('in', '0xc1', 700_000_000n, T0, USDT),
        move('in', '0xgasstation', 1_000_000_000_000_000n, T0 + 60, ETH),
        move('in', '0xairdropper', 10n ** 24n, T0 + 120, SPAM),
        move('out', '0xlookalike', 0n, T0 + 130, USDT),
        move('out', H, 700_000_000n, T0 + 1_800, USDT, '0xsweep'),
      ];
      expect(depositForward(D, transfers)).toEqual({ hotWallet: H, txid: '0xsweep', forwardedShare: 1 });
    },
  );

  test(
    'when the page starts with a forward whose receipts are older than the page, ' +
      'then that forward neither proves nor disproves',
    () => {
      const transfers = [
        move('out', H, 9_000_000n, T0 - 86_400 * 60, USDT, '0xold'),
        move('in', '0xc2', 3_000_000n, T0, USDT),
        move('out', H, 3_000_000n, T0 + 120, USDT, '0xnew'),
      ];
      expect(depositForward(D, transfers)).toEqual({ hotWallet: H, txid: '0xnew', forwardedShare: 1 });
      expect(depositForward(D, [move('out', H, 9_000_000n, T0, USDT)])).toBeNull();
    },
  );

  test('when a transfer has no timestamp, then the window cannot be checked', () => {
    const transfers = [
      { ...move('in', '0xc1', 1_000_000n, T0, USDT), timestamp: null },
      move('out', H, 1_000_000n, T0 + 60, USDT),
    ];
    expect(depositForward(D, transfers)).toBeNull();
  });

  test('when receipt and sweep share a block, then the receipt is counted first', () => {
    const transfers = [move('out', H, 1_000_000n, T0, USDT, '0xsweep'), move('in', '0xc1', 1_000_000n, T0, USDT)];
    expect(depositForward(D, transfers)?.hotWallet).toBe(H);
  });

  test('when the window is narrowed to 30 minutes, then a sweep after an hour no longer counts', () => {
    const transfers = [move('in', '0xc1', 1_000_000n, T0, USDT), move('out', H, 1_000_000n, T0 + HOUR, USDT)];
    expect(depositForward(D, transfers, { windowSeconds: 1_800 })).toBeNull();
    expect(depositForward(D, transfers)?.hotWallet).toBe(H);
  });
});
