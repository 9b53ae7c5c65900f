import { createTickBatcher } from '../../src/history/tick-batcher';

/** A fake executor: records each batch it is given and answers every item with its double (or a refusal). */
function fakeExecutor(refuse: (n: number) => boolean = () => false) {
  const batches: number[][] = [];
  const run = async (items: number[]): Promise<PromiseSettledResult<number>[]> => {
    batches.push(items);
    return items.map((n) =>
      refuse(n) ? { status: 'rejected', reason: new Error(`refused ${n}`) } : { status: 'fulfilled', value: n * 2 },
    );
  };
  return { batches, run };
}

const nextTurn = () => new Promise((r) => setImmediate(r));

describe('tick batcher', () => {
  test(
    'when 50 items are added in one turn, ' + 'then they go to the executor as one batch and each gets its own result',
    async () => {
      // Arrange
      const executor = fakeExecutor();
      const batcher = createTickBatcher({ maxItems: 100, run: executor.run });

      // Act
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => batcher.add(i)));

      // Assert
      expect(executor.batches).toHaveLength(1);
      expect(executor.batches[0]).toHaveLength(50);
      expect(results).toEqual(Array.from({ length: 50 }, (_, i) => i * 2));
    },
  );

  test('when items are added in two turns, then each turn is its own batch', async () => {
    const executor = fakeExecutor();
    const batcher = createTickBatcher({ maxItems: 100, run: executor.run });

    const first = [batcher.add(1), batcher.add(2)];
    await nextTurn();
    const second = [batcher.add(3)];

    expect(await Promise.all([...first, ...second])).toEqual([2, 4, 6]);
    expect(executor.batches).toEqual([[1, 2], [3]]);
  });

  test('when more than maxItems arrive in one turn, then batches hold at most maxItems', async () => {
    const executor = fakeExecutor();
    const batcher = createTickBatcher({ maxItems: 4, run: executor.run });

    await Promise.all(Array.from({ length: 10 }, (_, i) => batcher.add(i)));

    expect(executor.batches.map((b) => b.length)).toEqual([4, 4, 2]);
  });

  test('when the executor refuses one item, then only that caller is rejected', async () => {
    const executor = fakeExecutor((n) => n === 3);
    const batcher = createTickBatcher({ maxItems: 100, run: executor.run });

    const results = await Promise.allSettled([1, 2, 3, 4].map((n) => batcher.add(n)));

    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason.message).toBe('refused 3');
  });

  test('when the executor itself fails, then every caller of that batch is rejected with its error', async () => {
    const batcher = createTickBatcher<number, number>({
      maxItems: 100,
      run: async () => {
        throw new Error('connection lost');
      },
    });

    const results = await Promise.allSettled([batcher.add(1), batcher.add(2)]);

    expect(results).toEqual([
      { status: 'rejected', reason: new Error('connection lost') },
      { status: 'rejected', reason: new Error('connection lost') },
    ]);
  });
});
