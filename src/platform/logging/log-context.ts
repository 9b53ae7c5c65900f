import { AsyncLocalStorage } from 'node:async_hooks';

export type LogContext = Readonly<Record<string, unknown>>;

const store = new AsyncLocalStorage<LogContext>();

/**
 * Runs `fn` with `fields` added to every line any logger writes inside it, however deep the call. The
 * worker's activity interceptor uses it so that domain code logging through its injected logger says which
 * workflow (and HTTP request) it works for without being handed either. Only for code that awaits: a callback
 * fired later by an event emitter (e.g. Express after a body parser) runs outside the context, which is why
 * the HTTP side passes a child logger explicitly instead.
 */
export function withLogContext<T>(fields: LogContext, fn: () => T): T {
  const outer = store.getStore();
  return store.run(outer ? { ...outer, ...fields } : fields, fn);
}

/** The fields of the innermost withLogContext around the caller ({} outside any). */
export function currentLogContext(): LogContext {
  return store.getStore() ?? {};
}
