import { UnionFind } from '../../src/entities/domain/union-find';

describe('union-find', () => {
  test('when sets are joined, then find, sizeOf and components agree, and a repeated union merges nothing', () => {
    const uf = new UnionFind();
    expect(uf.union('a', 'b')).toBe(true);
    expect(uf.union('c', 'd')).toBe(true);
    expect(uf.union('b', 'a')).toBe(false);
    expect(uf.find('a')).toBe(uf.find('b'));
    expect(uf.find('a')).not.toBe(uf.find('c'));
    expect(uf.union('a', 'd')).toBe(true);
    expect(uf.sizeOf('c')).toBe(4);
    expect(uf.union('c', 'b')).toBe(false);
    expect(uf.find('e')).toBe('e');
    expect(uf.sizeOf('e')).toBe(1);
    expect(uf.sizeOf('never seen')).toBe(0);
    const components = [...uf.components().values()].map((keys) => [...keys].sort());
    expect(components).toEqual([['a', 'b', 'c', 'd'], ['e']]);
  });

  test('when a weighted key meets lighter sets, then the heavier one stays the representative (union by size)', () => {
    const uf = new UnionFind();
    uf.add('#big', 10);
    uf.union('x', 'y');
    uf.union('x', '#big');
    expect(uf.find('y')).toBe('#big');
    expect(uf.sizeOf('x')).toBe(12);
    // add() of a known key keeps its set and weight.
    uf.add('#big', 1);
    expect(uf.sizeOf('#big')).toBe(12);
  });

  test(
    'when a chain of 200,000 keys is joined one by one, ' + 'then find stays iterative (no stack overflow) and fast',
    () => {
      const uf = new UnionFind();
      const started = Date.now();
      for (let i = 1; i < 200_000; i++) uf.union(`k${i - 1}`, `k${i}`);
      expect(uf.find('k0')).toBe(uf.find('k199999'));
      expect(uf.sizeOf('k12345')).toBe(200_000);
      expect(uf.count).toBe(200_000);
      expect(Date.now() - started).toBeLessThan(5_000);
    },
  );
});
