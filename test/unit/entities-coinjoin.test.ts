import { coinJoinShape } from '../../src/entities/domain/coinjoin';
import type { UtxoTransaction } from '../../src/screening';

const addr = (prefix: string, i: number) => `bc1q${prefix}${String(i).padStart(4, '0')}`;
const tx = (inputs: [string | null, bigint][], outputs: [string | null, bigint][]): UtxoTransaction => ({
  txid: 'tx',
  timestamp: 1_700_000_000,
  inputs: inputs.map(([address, value]) => ({ address, value })),
  outputs: outputs.map(([address, value]) => ({ address, value })),
});
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('CoinJoin shapes', () => {
  test(
    'when a Whirlpool 0.01 BTC mix has 2 premix entrants (paying the fee) and 3 remixers, ' + 'then it is whirlpool',
    () => {
      const mix = tx(
        [
          [addr('in', 0), 1_000_102n],
          [addr('in', 1), 1_000_102n],
          [addr('in', 2), 1_000_000n],
          [addr('in', 3), 1_000_000n],
          [addr('in', 4), 1_000_000n],
        ],
        range(5).map((i) => [addr('out', i), 1_000_000n]),
      );
      expect(coinJoinShape(mix)).toBe('whirlpool');
    },
  );

  test('when 5 x 5 equal outputs are of a value no pool uses, then it is still whirlpool-shaped', () => {
    const mix = tx(
      range(5).map((i) => [addr('in', i), 777_777n + BigInt(i)]),
      range(5).map((i) => [addr('out', i), 777_000n]),
    );
    expect(coinJoinShape(mix)).toBe('whirlpool');
  });

  test('when JoinMarket pays 4 equal outputs plus 3 change from 7 inputs, then it is joinmarket', () => {
    const jm = tx(
      range(7).map((i) => [addr('in', i), 20_000_000n + BigInt(i) * 1_111n]),
      [
        ...range(4).map((i): [string, bigint] => [addr('cj', i), 12_345_678n]),
        [addr('ch', 0), 7_650_122n],
        [addr('ch', 1), 7_657_999n],
        [addr('ch', 2), 23_004n],
      ],
    );
    expect(coinJoinShape(jm)).toBe('joinmarket');
  });

  test(
    'when a Wasabi round has 50 inputs and 60 outputs of 3 repeated denominations plus change, ' + 'then it is wasabi',
    () => {
      const outputs: [string, bigint][] = [
        ...range(20).map((i): [string, bigint] => [addr('d1', i), 1_048_576n]),
        ...range(15).map((i): [string, bigint] => [addr('d2', i), 4_782_969n]),
        ...range(10).map((i): [string, bigint] => [addr('d3', i), 10_000_000n]),
        ...range(15).map((i): [string, bigint] => [addr('ch', i), 300_000n + BigInt(i) * 7_919n]),
      ];
      expect(outputs).toHaveLength(60);
      const round = tx(
        range(50).map((i) => [addr('in', i), 2_000_000n + BigInt(i) * 104_729n]),
        outputs,
      );
      expect(coinJoinShape(round)).toBe('wasabi');
    },
  );

  test(
    'when two parties each add an input and take one equal output and one change (Stonewall x2), ' +
      'then it is a CoinJoin',
    () => {
      const two = tx(
        [
          [addr('in', 0), 3_000_000n],
          [addr('in', 1), 5_000_000n],
        ],
        [
          [addr('eq', 0), 2_000_000n],
          [addr('eq', 1), 2_000_000n],
          [addr('ch', 0), 999_000n],
          [addr('ch', 1), 2_999_000n],
        ],
      );
      expect(coinJoinShape(two)).toBe('equal-outputs');
    },
  );

  test('when a wallet pays with 2 inputs and gets change, then it is not a CoinJoin', () => {
    const payment = tx(
      [
        [addr('w', 0), 1_200_000n],
        [addr('w', 1), 1_100_000n],
      ],
      [
        [addr('payee', 0), 1_500_000n],
        [addr('w', 2), 798_600n],
      ],
    );
    expect(coinJoinShape(payment)).toBeNull();
  });

  test('when one input pays 10 equal amounts (a payout) plus change, then it is not a CoinJoin', () => {
    const payout = tx(
      [[addr('w', 0), 50_000_000n]],
      [...range(10).map((i): [string, bigint] => [addr('p', i), 1_000_000n]), [addr('w', 1), 39_990_000n]],
    );
    expect(coinJoinShape(payout)).toBeNull();
  });

  test('when 2 inputs pay 3 equal amounts, then it is not a CoinJoin (fewer owners than equal outputs)', () => {
    const payout = tx(
      [
        [addr('w', 0), 2_000_000n],
        [addr('w', 1), 2_000_000n],
      ],
      [...range(3).map((i): [string, bigint] => [addr('p', i), 1_000_000n]), [addr('w', 2), 990_000n]],
    );
    expect(coinJoinShape(payout)).toBeNull();
  });

  test('when 3 inputs are consolidated into 1 output, then it is not a CoinJoin', () => {
    const consolidation = tx(
      [
        [addr('w', 0), 100_000n],
        [addr('w', 1), 200_000n],
        [addr('w', 2), 300_000n],
      ],
      [[addr('w', 3), 598_000n]],
    );
    expect(coinJoinShape(consolidation)).toBeNull();
  });

  test(
    'when many inputs make many identical dust outputs, or one address fills a 5 x 5, ' + 'then it is not a CoinJoin',
    () => {
      const dust = tx(
        range(12).map((i) => [addr('in', i), 10_000n]),
        range(12).map((i) => [addr('out', i), 546n]),
      );
      expect(coinJoinShape(dust)).toBeNull();
      const oneOwner = tx(
        range(5).map((i) => [addr('in', i % 4), 1_000_050n]),
        range(5).map((i) => [addr('out', i), 1_000_000n]),
      );
      expect(coinJoinShape(oneOwner)).not.toBe('whirlpool');
    },
  );

  test(
    'when inputs have no address (P2PK) or outputs carry OP_RETURN, ' + 'then only addressed inputs count as owners',
    () => {
      const opReturn = tx(
        [
          [null, 5_000_000n],
          [null, 5_000_000n],
          [addr('w', 0), 5_000_000n],
        ],
        [
          [addr('p', 0), 4_000_000n],
          [addr('p', 1), 4_000_000n],
          [null, 0n],
        ],
      );
      expect(coinJoinShape(opReturn)).toBeNull();
    },
  );
});
