/**
 * The chain calls one expansion may spend. A large cluster (an exchange's) would take thousands of reads to know
 * whole; a screening pays for a bounded number, and the cluster it leaves behind says it is partial.
 */
export interface CallBudget {
  /** Calls made so far (a call cut short by the signal counts: it was sent). */
  readonly calls: number;
  /** True once the budget is spent or the signal aborted: nothing more will be sent. */
  readonly stopped: boolean;
  /**
   * Makes one call, or answers undefined without calling when stopped. A call that fails because the signal
   * aborted also answers undefined (the expansion stops and reports what it has); any other failure is thrown.
   */
  spend<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T | undefined>;
}

export function callBudget(maxCalls: number, signal: AbortSignal): CallBudget {
  let calls = 0;
  const stopped = () => signal.aborted || calls >= maxCalls;
  return {
    get calls() {
      return calls;
    },
    get stopped() {
      return stopped();
    },
    async spend<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
      if (stopped()) return undefined;
      calls++;
      try {
        return await call(signal);
      } catch (err) {
        if (signal.aborted) return undefined;
        throw err;
      }
    },
  };
}
