import { isRoundAmount, oneTimeChange, roundAmountChange } from '../../src/entities/domain/change-output';
import type { UtxoTransaction } from '../../src/screening';

const tx = (inputs: (string | null)[], outputs: [string | null, bigint][]): UtxoTransaction => ({
  txid: 'tx',
  timestamp: 1_700_000_000,
  inputs: inputs.map((address) => ({ address, value: 10_000_000n })),
  outputs: outputs.map(([address, value]) => ({ address, value })),
});
const seen = (...addresses: string[]) => {
  const set = new Set(addresses);
  return (a: string) => set.has(a);
};

describe('one-time change', () => {
  const payment = tx(
    ['bc1qw1'],
    [
      ['bc1qpayee', 3_000_000n],
      ['bc1qfresh', 6_990_000n],
    ],
  );

  test('when exactly one output address is new and the other was seen before, then the new one is the change', () => {
    expect(oneTimeChange(payment, seen('bc1qw1', 'bc1qpayee'))).toBe('bc1qfresh');
  });

  test('when both outputs are new, or both were seen, then there is no guess', () => {
    expect(oneTimeChange(payment, seen())).toBeNull();
    expect(oneTimeChange(payment, seen('bc1qpayee', 'bc1qfresh'))).toBeNull();
  });

  test('when an output pays an input address back (self-change), then the fresh output is the payee: no guess', () => {
    const selfChange = tx(
      ['bc1qw1'],
      [
        ['bc1qnewpayee', 3_000_000n],
        ['bc1qw1', 6_990_000n],
      ],
    );
    expect(oneTimeChange(selfChange, seen('bc1qw1'))).toBeNull();
  });

  test('when there is one output, no input address (coinbase) or a CoinJoin, then there is no guess', () => {
    expect(oneTimeChange(tx(['bc1qw1'], [['bc1qfresh', 9_990_000n]]), seen())).toBeNull();
    expect(
      oneTimeChange(
        tx(
          [],
          [
            ['bc1qa', 1n],
            ['bc1qb', 2n],
          ],
        ),
        seen('bc1qa'),
      ),
    ).toBeNull();
    const whirlpool = tx(
      ['bc1q1', 'bc1q2', 'bc1q3', 'bc1q4', 'bc1q5'],
      [1, 2, 3, 4, 5].map((i): [string, bigint] => [`bc1qo${i}`, 1_000_000n]),
    );
    expect(oneTimeChange(whirlpool, (a) => a !== 'bc1qo1')).toBeNull();
  });
});

describe('round-amount change', () => {
  test('round means a whole multiple of 10,000 sats', () => {
    expect(isRoundAmount(10_000n)).toBe(true);
    expect(isRoundAmount(150_000_000n)).toBe(true);
    expect(isRoundAmount(9_999n)).toBe(false);
    expect(isRoundAmount(1_234_567n)).toBe(false);
    expect(isRoundAmount(0n)).toBe(false);
  });

  test('when one of two outputs is round, then the other one is the change', () => {
    expect(
      roundAmountChange(
        tx(
          ['bc1qw'],
          [
            ['bc1qc', 6_873_421n],
            ['bc1qp', 3_100_000n],
          ],
        ),
      ),
    ).toBe('bc1qc');
    expect(
      roundAmountChange(
        tx(
          ['bc1qw'],
          [
            ['bc1qp', 50_000n],
            ['bc1qc', 9_948_733n],
          ],
        ),
      ),
    ).toBe('bc1qc');
  });

  test('when both or neither output is round, or there are 3 outputs, then there is no guess', () => {
    expect(
      roundAmountChange(
        tx(
          ['bc1qw'],
          [
            ['bc1qa', 5_000_000n],
            ['bc1qb', 4_990_000n],
          ],
        ),
      ),
    ).toBeNull();
    expect(
      roundAmountChange(
        tx(
          ['bc1qw'],
          [
            ['bc1qa', 5_000_001n],
            ['bc1qb', 4_989_999n],
          ],
        ),
      ),
    ).toBeNull();
    expect(
      roundAmountChange(
        tx(
          ['bc1qw'],
          [
            ['bc1qa', 1_000_000n],
            ['bc1qb', 4_989_999n],
            ['bc1qc', 3_989_999n],
          ],
        ),
      ),
    ).toBeNull();
  });

  test('when an OP_RETURN output rides along, then it is not counted as an output to choose from', () => {
    expect(
      roundAmountChange(
        tx(
          ['bc1qw'],
          [
            ['bc1qc', 6_873_421n],
            [null, 0n],
            ['bc1qp', 3_100_000n],
          ],
        ),
      ),
    ).toBe('bc1qc');
  });
});
