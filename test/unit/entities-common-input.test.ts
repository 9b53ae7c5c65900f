import { dustOf } from '../../src/entities/domain/coinjoin';
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

  test(
    'when five dogecoin addresses pay five equal outputs of 0.001 DOGE (the hard dust limit, markers), then they ' +
      'are one wallet on dogecoin, while a 5 x 5 of 0.05 DOGE is still a CoinJoin there',
    () => {
      const inputs = ['D1', 'D2', 'D3', 'D4', 'D5'];
      const markers = tx(
        't5',
        inputs,
        [1, 2, 3, 4, 5].map((i): [string, bigint] => [`Do${i}`, 100_000n]),
      );
      expect(commonInputLinks(markers, dustOf('dogecoin'))).toHaveLength(4);
      // Read with bitcoin's bound, the same transaction is a Whirlpool round and the wallet stays unmerged.
      expect(commonInputLinks(markers, dustOf('bitcoin'))).toEqual([]);
      const mixed = tx(
        't6',
        inputs,
        [1, 2, 3, 4, 5].map((i): [string, bigint] => [`Do${i}`, 5_000_000n]),
      );
      expect(commonInputLinks(mixed, dustOf('dogecoin'))).toEqual([]);
    },
  );

  test("when the chain is litecoin or bitcoin cash, then the bound is that network's dust in its own base units", () => {
    expect([dustOf('bitcoin'), dustOf('bitcoin-cash'), dustOf('litecoin'), dustOf('dogecoin')]).toEqual([
      2_730n,
      2_730n,
      5_460n,
      1_000_000n,
    ]);
    const inputs = ['ltc1a', 'ltc1b', 'ltc1c'];
    const markers = tx(
      't7',
      inputs,
      [1, 2, 3].map((i): [string, bigint] => [`ltc1o${i}`, 5_000n]),
    );
    expect(commonInputLinks(markers, dustOf('litecoin'))).toHaveLength(2);
    expect(commonInputLinks(markers, dustOf('bitcoin'))).toEqual([]);
  });
});
