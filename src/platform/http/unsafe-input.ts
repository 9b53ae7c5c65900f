import { isUtf8 } from 'node:buffer';

/**
 * Input that passes JSON and query-string parsing but cannot be handled faithfully further in:
 * - U+0000, which Postgres `text` and `jsonb` refuse (the insert would fail: a 500, not the caller's 400);
 * - lone UTF-16 surrogates (`"\ud800"` is valid JSON), which the pg driver silently turns into U+FFFD;
 * - names that lead to a prototype (`__proto__`, `constructor.prototype`, also spelt `a[__proto__][b]`), which a
 *   later merge, spread or path-setting helper could turn into prototype pollution (refused outright, as
 *   Fastify's JSON parser does by default);
 * - nesting deeper than MAX_JSON_DEPTH, past which Postgres' jsonb parser and recursive code run out of stack;
 * - a number too large for a double (`1e400`), which JSON.parse reads as Infinity: JSON cannot write it back (it
 *   becomes null, or the RFC 8785 form a request body is hashed by throws), so any field carrying one is refused.
 * Invalid UTF-8 bytes are caught before parsing (requireUtf8 / isUtf8Query), because the decoders replace them.
 */
export const MAX_JSON_DEPTH = 64;

export interface UnsafeInput {
  /** Where, as a dotted path (`filters.symbol`, `items.0`); `body` / `query` for the whole thing. */
  parameter: string;
  expected: string;
}

export const EXPECTED_TEXT = 'text without U+0000 or unpaired UTF-16 surrogates';
export const EXPECTED_KEY = 'a name that does not lead to a prototype ("__proto__", "constructor" then "prototype")';
export const EXPECTED_DEPTH = `JSON nested at most ${MAX_JSON_DEPTH} levels deep`;
export const EXPECTED_FINITE = 'a number within the range of a double (not 1e400)';

/**
 * String#isWellFormed (ES2024, in Node 20): false when a UTF-16 surrogate is unpaired. The compiler's lib predates it.
 */
const isWellFormed = (s: string) => (s as unknown as { isWellFormed(): boolean }).isWellFormed();
const unsafeText = (s: string) => s.includes('\u0000') || !isWellFormed(s);
/** A key as it can be quoted in a message: control characters and lone surrogates escaped. */
const printable = (key: string) => JSON.stringify(key).slice(1, -1);
const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
/** Paths are echoed in the answer: escaped, and cut short (a key may be 256 kB, a path 64 levels long). */
const MAX_PATH_CHARS = 80;
const quoted = (path: string) => {
  const text = printable(path);
  return text.length > MAX_PATH_CHARS ? `${text.slice(0, MAX_PATH_CHARS - 1)}…` : text;
};
/**
 * `__proto__` anywhere in a key's dotted or bracketed segments, or `constructor` then `prototype`:
 * what an extended query parser (qs) or a path-setting helper would walk into Object.prototype.
 */
function namesPrototype(key: string): boolean {
  const segments = key.split(/[.[\]]+/);
  return segments.some(
    (segment, i) => segment === '__proto__' || (segment === 'constructor' && segments[i + 1] === 'prototype'),
  );
}

/**
 * The first unsafe place in a parsed JSON value or query object, or null. Iterative, so a body
 * nested 100,000 levels deep is measured without exhausting the stack.
 */
export function findUnsafeInput(value: unknown, root: string): UnsafeInput | null {
  const pending: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const parameter = item.path ? quoted(item.path) : root;
    if (typeof item.value === 'string') {
      if (unsafeText(item.value)) return { parameter, expected: EXPECTED_TEXT };
      continue;
    }
    if (typeof item.value === 'number') {
      if (!Number.isFinite(item.value)) return { parameter, expected: EXPECTED_FINITE };
      continue;
    }
    if (typeof item.value !== 'object' || item.value === null) continue;
    if (item.depth >= MAX_JSON_DEPTH) return { parameter, expected: EXPECTED_DEPTH };
    for (const [key, child] of Object.entries(item.value)) {
      const path = join(item.path, key);
      if (unsafeText(key)) return { parameter: quoted(path), expected: EXPECTED_TEXT };
      const isPrototypeHolder =
        key === 'constructor' && typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype');
      if (namesPrototype(key) || isPrototypeHolder) return { parameter: quoted(path), expected: EXPECTED_KEY };
      pending.push({ value: child, path, depth: item.depth + 1 });
    }
  }
  return null;
}

/**
 * Whether a raw query string (`a=1&b=%C3%A9`) percent-decodes to valid UTF-8; the parser would turn
 * bad bytes into U+FFFD. A `%` not followed by two hex digits is literal (as the parser reads it);
 * decodeURIComponent throws on byte sequences that are not UTF-8.
 */
export function isUtf8Query(rawQuery: string): boolean {
  try {
    decodeURIComponent(rawQuery.replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
    return true;
  } catch {
    return false;
  }
}

/** Thrown from a body parser's `verify` hook; body-parser keeps `status` and `type`, the error handlers answer 400. */
export class InvalidUtf8BodyError extends Error {
  readonly status = 400;
  readonly type = 'entity.encoding.invalid';
  constructor() {
    super('Request body is not valid UTF-8');
    this.name = 'InvalidUtf8BodyError';
  }
}

/**
 * body-parser `verify` hook: a body sent as UTF-8 (the default, and RFC 8259's only charset for JSON)
 * must be valid UTF-8; invalid bytes are refused instead of being decoded to U+FFFD.
 */
export function requireUtf8(_req: unknown, _res: unknown, raw: Buffer, charset: string | null): void {
  const utf8 = charset === null || charset === 'utf-8' || charset === 'utf8';
  if (utf8 && !isUtf8(raw)) throw new InvalidUtf8BodyError();
}
