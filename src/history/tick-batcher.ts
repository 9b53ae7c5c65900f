/**
 * Collects the items added during one turn of the event loop (or until `maxItems`) and hands them to
 * `run` together; each caller's promise settles with its own item's result. Callers that arrive while
 * a batch is running form the next batch: nothing waits longer than one turn to be sent.
 */
export function createTickBatcher<T, R>(options: {
  maxItems: number;
  /** Settles every item: one result per item, in the order given. Rejecting fails the whole batch. */
  run: (items: T[]) => Promise<PromiseSettledResult<R>[]>;
}): { add(item: T): Promise<R> } {
  type Waiter = { item: T; resolve: (r: R) => void; reject: (e: unknown) => void };
  let pending: Waiter[] = [];
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    options.run(batch.map((w) => w.item)).then(
      (results) => {
        batch.forEach((w, i) => {
          const r = results[i];
          if (r?.status === 'fulfilled') w.resolve(r.value);
          else w.reject(r ? r.reason : new Error('the batch returned no result for this item'));
        });
      },
      (err: unknown) => {
        for (const w of batch) w.reject(err);
      },
    );
  };

  return {
    add(item) {
      return new Promise<R>((resolve, reject) => {
        pending.push({ item, resolve, reject });
        if (pending.length >= options.maxItems) flush();
        else if (!scheduled) {
          scheduled = true;
          // setImmediate runs after the I/O callbacks of this turn: every request read in it joins the batch.
          setImmediate(flush);
        }
      });
    },
  };
}
