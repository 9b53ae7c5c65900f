/**
 * Deadlines built from an AbortController and a plain timer, never from `AbortSignal.any` +
 * `AbortSignal.timeout`. On Node 20 a timeout signal only reachable through an `AbortSignal.any`
 * composite can be garbage-collected before it fires, and then the composite never aborts, listener or
 * not (reproduced on 20.20.2 with forced GCs: `AbortSignal.any([parent, AbortSignal.timeout(300)])`
 * still not aborted after 2 s). A crawl deadline lost that way left a screening job hanging on a silent
 * chain node until the activity's own timeout. Here the timer's closure holds the controller strongly,
 * and each parent holds it through its listener, so nothing a deadline depends on can be collected.
 */
export interface Deadline {
  signal: AbortSignal;
  /** True once the timer (not a parent) aborted the signal. */
  readonly timedOut: boolean;
  /** Stops the timer and detaches from the parents; call it when the guarded work is over. */
  dispose(): void;
}

export function timeoutError(ms: number): DOMException {
  return new DOMException(`The operation timed out after ${ms} ms`, 'TimeoutError');
}

/**
 * A signal that aborts after `ms` with a TimeoutError, or as soon as any parent aborts (with that
 * parent's reason). `ms` of undefined means no timer: the signal only follows its parents.
 */
export function deadline(ms: number | undefined, ...parents: Array<AbortSignal | undefined>): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const attached: Array<{ parent: AbortSignal; onAbort: () => void }> = [];
  let timer: NodeJS.Timeout | undefined;

  const dispose = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    for (const { parent, onAbort } of attached.splice(0)) parent.removeEventListener('abort', onAbort);
  };

  for (const parent of parents) {
    if (!parent) continue;
    if (parent.aborted) {
      controller.abort(parent.reason);
      break;
    }
    const onAbort = () => {
      controller.abort(parent.reason);
      dispose();
    };
    parent.addEventListener('abort', onAbort, { once: true });
    attached.push({ parent, onAbort });
  }

  if (controller.signal.aborted) dispose();
  else if (ms !== undefined) {
    timer = setTimeout(
      () => {
        timedOut = true;
        controller.abort(timeoutError(ms));
        dispose();
      },
      Math.max(0, ms),
    );
    // Like AbortSignal.timeout: a pending deadline alone does not keep the process alive.
    timer.unref();
  }

  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    dispose,
  };
}

/**
 * Settles with `promise`, or rejects with the signal's reason the moment it aborts. A deadline must not
 * depend on every layer below (fetch, body reads, a library's retry delays) honouring the signal; the
 * work left behind is abandoned, and its own timeout ends it.
 */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => undefined);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
