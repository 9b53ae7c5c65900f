import { commonInputLinks } from '../../src/entities/domain/common-input';
import type { UtxoTransaction } from '../../src/screening';

const tx = (txid: string, inputs: (string | null)[], outputs: [string | null, bigint][]): UtxoTransaction => ({
  txid,
  timestamp: 1_700_000_000,
  inputs: inputs.map((address) => ({ address, value: 1_000_000n })),
  outputs: outputs.map(([address, value]) => ({ address, value })),
});

describe('common-input links', () => {
  test('when a wallet spends 3 addresses, then each is linked to the smallest, whatever the input order', () => {
    const links = commonInputLinks(tx('t1', ['bc1qc', 'bc1qa', 'bc1qb', 'bc1qa'], [['bc1qx', 2_500_000n]]));
    expect(links).toEqual([
      { a: 'bc1qa', b: 'bc1qb', heuristic: 'common_input', txid: 't1' },
      { a: 'bc1qa', b: 'bc1qc', heuristic: 'common_input', txid: 't1' },
    ]);
  });

  test('when the inputs are one address (twice) or have no address, then there is nothing to link', () => {
    expect(commonInputLinks(tx('t2', ['bc1qa', 'bc1qa', null], [['bc1qx', 2_000_000n]]))).toEqual([]);
    expect(commonInputLinks(tx('t3', [], [['bc1qminer', 312_500_000n]]))).toEqual([]);
  });

  test('when the transaction is a CoinJoin, then its participants are not linked', () => {
    const whirlpool = tx(
      't4',
      ['bc1q1', 'bc1q2', 'bc1q3', 'bc1q4', 'bc1q5'],
      [1, 2, 3, 4, 5].map((i): [string, bigint] => [`bc1qo${i}`, 1_000_000n]),
    );
    expect(commonInputLinks(whirlpool)).toEqual([]);
  });
});
