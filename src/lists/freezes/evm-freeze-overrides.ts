import { z } from 'zod';
import { EVM_CHAIN_NAMES } from '../../screening';

/**
 * A contract address (kept lower-case, as the reference data spell EVM addresses) or `off`; one pattern rather than
 * a union, so a bad value is told what was expected.
 */
export const evmContractOrOff = z
  .string()
  .regex(/^(off|0x[0-9a-fA-F]{40})$/, 'an EVM address (0x + 40 hex) or off')
  .transform((v) => v.toLowerCase());

const NETWORK_KEYS = ['USDT', 'USDC', 'startBlock'] as const;

/** One network's changes to the issuer table: a token's contract (or `off`), where contracts without a cursor start. */
const networkOverride = z.strictObject({
  USDT: evmContractOrOff.optional(),
  USDC: evmContractOrOff.optional(),
  startBlock: z.number().int().min(0).optional(),
});

const overridesSchema = z.partialRecord(z.enum(EVM_CHAIN_NAMES), networkOverride);

/** FREEZES_EVM_CONTRACTS, parsed: per EVM network, what replaces the issuer table's entries. */
export type EvmFreezeOverrides = z.output<typeof overridesSchema>;

const jsonOf = (text: string): { value: unknown } | null => {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return null;
  }
};

/** What an operator reads: the network or key that is wrong and what was expected. */
function describe(issue: z.core.$ZodIssue): string {
  const where = issue.path.join('.');
  if (issue.code === 'unrecognized_keys')
    return where
      ? `${where}: unknown key ${issue.keys.join(', ')} (${NETWORK_KEYS.join(', ')})`
      : `unknown network ${issue.keys.join(', ')} (${EVM_CHAIN_NAMES.join(', ')})`;
  return where ? `${where}: ${issue.message}` : issue.message;
}

/**
 * FREEZES_EVM_CONTRACTS's text → its overrides, or the problems that make it wrong (each naming the network and
 * key), so a bad value stops the start with a line that says what to fix.
 */
export function parseEvmFreezeOverrides(text: string): { overrides: EvmFreezeOverrides } | { problems: string[] } {
  const json = jsonOf(text);
  if (!json) return { problems: ['not JSON: a JSON object {"<EVM network>": {"USDC": "0x…" | "off", …}}'] };
  const parsed = overridesSchema.safeParse(json.value);
  if (!parsed.success) return { problems: parsed.error.issues.map(describe) };
  return { overrides: parsed.data };
}
