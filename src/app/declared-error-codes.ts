import { type ErrorCodeEntry, type ErrorTable, PLATFORM_ERRORS } from '../platform/errors';
import { FEATURES } from './features';

/**
 * Every code the service can answer: the platform's generic codes and each feature's table (FEATURES), by code.
 * A code declared by two tables is refused here, at load, so that each keeps one status and one owner.
 */
function declaredCodes(tables: readonly { owner: string; table: ErrorTable }[]): ReadonlyMap<string, ErrorCodeEntry> {
  const byCode = new Map<string, ErrorCodeEntry>();
  const ownerOf = new Map<string, string>();
  for (const { owner, table } of tables) {
    for (const entry of Object.values(table)) {
      const earlier = ownerOf.get(entry.code);
      if (earlier) throw new Error(`error code ${entry.code} is declared by both ${earlier} and ${owner}`);
      ownerOf.set(entry.code, owner);
      byCode.set(entry.code, entry);
    }
  }
  return byCode;
}

export const ERROR_CODES: ReadonlyMap<string, ErrorCodeEntry> = declaredCodes([
  { owner: 'platform', table: PLATFORM_ERRORS },
  ...FEATURES.flatMap((feature) => (feature.errors ? [{ owner: feature.name, table: feature.errors }] : [])),
]);

/** `codes` as they are, once each is known to be declared: the OpenAPI document names no code the service lacks. */
export function declared(codes: readonly string[]): readonly string[] {
  const unknown = codes.filter((code) => !ERROR_CODES.has(code));
  if (unknown.length > 0) throw new Error(`undeclared error code(s) ${unknown.join(', ')}: add them to an error table`);
  return codes;
}
