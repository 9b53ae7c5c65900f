import type { ClusterLink } from '../../src/entities/domain/cluster-link';
import { planMerges } from '../../src/entities/domain/merge-plan';

const link = (a: string, b: string, txid = `${a}-${b}`): ClusterLink => ({ a, b, heuristic: 'common_input', txid });

describe('merge plan', () => {
  test(
    'when links join two stored clusters and new addresses, ' + 'then the larger survives and absorbs the smaller',
    () => {
      const stored = new Map([
        ['big1', { clusterId: 7, size: 5 }],
        ['small1', { clusterId: 3, size: 2 }],
        ['small2', { clusterId: 3, size: 2 }],
      ]);
      const plan = planMerges(
        [link('small1', 'new1'), link('small2', 'new1'), link('new1', 'big1'), link('small1', 'small2')],
        stored,
      );
      // small2-new1 and small1-small2 join what is already one set: not evidence.
      expect(plan.evidence.map((l) => l.txid)).toEqual(['small1-new1', 'new1-big1']);
      expect(plan.absorbed).toEqual([{ loser: 3, survivor: 7 }]);
      expect(plan.grown).toEqual([{ id: 7, size: 8 }]);
      expect(plan.joined).toEqual([{ address: 'new1', clusterId: 7 }]);
      expect(plan.created).toEqual([]);
      expect(plan.survivorIds).toEqual([7]);
    },
  );

  test(
    'when all addresses are new, ' +
      'then one new cluster per connected set; a tie between stored clusters keeps the older id',
    () => {
      const plan = planMerges([link('a', 'b'), link('c', 'd'), link('b', 'e'), link('x', 'x')], new Map());
      expect(plan.created.map((c) => [...c.addresses].sort())).toEqual([
        ['a', 'b', 'e'],
        ['c', 'd'],
      ]);
      expect(plan.evidence).toHaveLength(3);

      const tie = planMerges(
        [link('p', 'q')],
        new Map([
          ['p', { clusterId: 9, size: 1 }],
          ['q', { clusterId: 4, size: 1 }],
        ]),
      );
      expect(tie.absorbed).toEqual([{ loser: 9, survivor: 4 }]);
    },
  );

  test('when every link is inside one stored cluster, then nothing is written', () => {
    const stored = new Map([
      ['a', { clusterId: 1, size: 3 }],
      ['b', { clusterId: 1, size: 3 }],
    ]);
    const plan = planMerges([link('a', 'b')], stored);
    expect(plan).toEqual({ evidence: [], created: [], grown: [], absorbed: [], joined: [], survivorIds: [1] });
  });
});
