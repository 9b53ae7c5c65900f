/** Input and result of the lists workflows. Types and pure values only: the workflow bundle stays pure. */
import { EVM_CHAIN_NAMES } from '../screening/workflow-types';

export interface ListRefreshInput {
  list: 'ofac';
  /** OFAC_REFRESH_SOURCE or a file inside OFAC_ISSUE_DIR (the worker refuses anything else: refresh-sources.ts). */
  source: string;
  /**
   * Refused by the worker when set: a forced load delists what was designated since, so only the CLI
   * (`npm run lists:update -- --force`, which calls refreshOfacList itself) forces one.
   */
  force?: boolean;
}

export interface ListRefreshResult {
  status: 'unchanged' | 'applied';
  version: number;
  issueDate: string;
  added: number;
  removed: number;
  changed: number;
}

/**
 * The chains whose stablecoin freeze events a freeze sync may read: every EVM network (its issuer contracts are
 * the worker's to know: src/lists/freezes/evm-freeze-contracts.ts) and TRON.
 */
export const FREEZE_SOURCES = [...EVM_CHAIN_NAMES, 'tron'] as const;
export type FreezeSource = (typeof FREEZE_SOURCES)[number];

export const isFreezeSource = (value: unknown): value is FreezeSource =>
  typeof value === 'string' && (FREEZE_SOURCES as readonly string[]).includes(value);

/**
 * Why a freeze sync input is refused, or null: `sources` must be a list of known chains, each once. The input is
 * the schedule's (the chains the scheduling worker has a node for), or anyone's who reaches the Temporal frontend.
 */
export function freezeSyncInputProblem(input: unknown): string | null {
  const sources = (input as { sources?: unknown } | null)?.sources;
  if (!Array.isArray(sources)) return 'a freeze sync input names its chains in `sources`';
  const unknown = sources.find((s) => !isFreezeSource(s));
  if (unknown !== undefined)
    return `${JSON.stringify(unknown)?.slice(0, 40)} is not a freeze source (${FREEZE_SOURCES.join(', ')})`;
  if (new Set(sources).size !== sources.length) return 'a freeze sync input names a chain twice';
  return null;
}
