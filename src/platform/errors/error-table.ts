/**
 * How a failure code is declared: each feature (and the platform, for its generic codes) keeps one table made by
 * `defineErrorCodes`, and everything that raises or answers a code takes an entry of such a table, never a bare
 * string, so every code the service can answer is declared exactly once, beside the code that owns it.
 * Pure data and functions: the workflow bundle imports the tables.
 */

/** The brand that only `defineErrorCodes` gives: an entry typed by hand is not a declared code. */
declare const declaredInATable: unique symbol;

/** What a code answers over HTTP, and whether retrying may help (an activity's failure is retried when it may). */
export interface ErrorCodeSpec {
  readonly status: number;
  readonly retryable: boolean;
}

/** One declared code: its spec and the code itself, so an entry is all an error or an answer needs. */
export interface ErrorCodeEntry<Code extends string = string> extends ErrorCodeSpec {
  readonly code: Code;
  readonly [declaredInATable]: true;
}

/** A table of codes, each entry under its own code. */
export type ErrorTable<Codes extends string = string> = { readonly [Code in Codes]: ErrorCodeEntry<Code> };

/**
 * Our codes are UPPER_SNAKE_CASE: that is how a code read back from a Temporal failure's `type` is told from the
 * PascalCase names Temporal gives failures that are not ours (Error, TypeError, a timeout), with no global table.
 */
export const ERROR_CODE_PATTERN = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

/** Declares a table of codes: `defineErrorCodes({ NOT_FOUND: { status: 404, retryable: false } })`. */
export function defineErrorCodes<const Specs extends Record<string, ErrorCodeSpec>>(
  specs: Specs & { readonly [Code in keyof Specs]: Code extends Uppercase<Code & string> ? ErrorCodeSpec : never },
): ErrorTable<keyof Specs & string> {
  const entries = Object.entries(specs).map(([code, { status, retryable }]) => {
    if (!ERROR_CODE_PATTERN.test(code)) throw new Error(`error code ${code} is not UPPER_SNAKE_CASE`);
    return [code, Object.freeze({ code, status, retryable })] as const;
  });
  return Object.freeze(Object.fromEntries(entries)) as unknown as ErrorTable<keyof Specs & string>;
}

/** The entry of `code` in the first of `tables` that declares it (a code read back from storage or Temporal). */
export function findErrorCode(code: string, ...tables: readonly ErrorTable[]): ErrorCodeEntry | undefined {
  for (const table of tables) if (Object.hasOwn(table, code)) return table[code];
  return undefined;
}
