import { z } from 'zod';
import { configSlice, type SliceConfig } from '../platform/config/config-slice';
import { evmContractOrOff, parseEvmFreezeOverrides } from './freezes/evm-freeze-overrides';

/** Where and how often the OFAC list is refreshed, when it counts as stale, and how stablecoin freezes are read. */
const variables = z.object({
  /** Where the OFAC refresh reads the SDN Advanced XML (a URL or a file path). */
  OFAC_REFRESH_SOURCE: z
    .string()
    .min(1)
    .default('https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN_ADVANCED.XML'),
  /**
   * A directory whose files a list refresh workflow may also read (e.g. an issue an operator dropped there); a file
   * must resolve (symlinks followed) inside it. Unset: the workflow reads OFAC_REFRESH_SOURCE only.
   */
  OFAC_ISSUE_DIR: z.string().min(1).optional(),
  /** Hours between OFAC refreshes by the schedule lists-refresh:ofac; 0 turns the refresh (and staleness) off. */
  OFAC_REFRESH_EVERY_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 31)
    .default(24),
  /** An active OFAC version older than this (by issue date) makes /readyz say degraded while refresh is on. */
  OFAC_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(3650).default(8),
  /**
   * Minutes between reads of the stablecoin freeze events (schedule lists-refresh:freezes; only with an EVM
   * network's endpoint where an issuer contract is read, or TRON_API_URL); 0 turns it off.
   */
  FREEZES_SYNC_EVERY_MINUTES: z.coerce.number().int().min(0).max(1440).default(10),
  /** Blocks the freeze reader stays behind each EVM network's head, so a reorg cannot take back what it applied. */
  FREEZES_CONFIRMATIONS: z.coerce.number().int().min(0).max(1000).default(12),
  /**
   * Where an Ethereum contract without a cursor starts reading (default: one window before the confirmed head); a
   * block number is one network's, so the others take theirs from FREEZES_EVM_CONTRACTS (`startBlock`).
   */
  FREEZES_START_BLOCK: z.coerce.number().int().min(0).optional(),
  /** Blocks per eth_getLogs request (halved when the node calls a range too large). */
  FREEZES_WINDOW_BLOCKS: z.coerce.number().int().min(1).max(1_000_000).default(2_000),
  /** Where TRON's reader starts without a cursor (ISO 8601; default: a day before now). */
  FREEZES_TRON_START_AT: z.iso.datetime({ offset: true }).optional(),
  /**
   * Changes to the issuer contracts read on the EVM networks (freezes/evm-freeze-contracts.ts), per network: a
   * token's contract or `off`, and `startBlock`; e.g. `{"arbitrum":{"USDC":"off"},"base":{"startBlock":2797221}}`.
   */
  FREEZES_EVM_CONTRACTS: z
    .string()
    .default('{}')
    .transform((text, ctx) => {
      const parsed = parseEvmFreezeOverrides(text);
      if ('overrides' in parsed) return parsed.overrides;
      for (const message of parsed.problems) ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }),
  /** Ethereum's contracts as they were set before FREEZES_EVM_CONTRACTS (its `ethereum.USDT`, `ethereum.USDC`). */
  FREEZES_USDT_ETHEREUM_CONTRACT: evmContractOrOff.optional(),
  FREEZES_USDC_ETHEREUM_CONTRACT: evmContractOrOff.optional(),
  FREEZES_USDT_TRON_CONTRACT: z
    .union([z.literal('off'), z.string().regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'a base58 TRON address (T…) or off')])
    .default('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
});

/** Ethereum's older variables and FREEZES_EVM_CONTRACTS each set one thing: setting both would leave one unread. */
const ETHEREUM_ALIASES = [
  ['FREEZES_USDT_ETHEREUM_CONTRACT', 'USDT'],
  ['FREEZES_USDC_ETHEREUM_CONTRACT', 'USDC'],
  ['FREEZES_START_BLOCK', 'startBlock'],
] as const;

export const listsConfigSlice = configSlice({
  variables,
  problems: (config) =>
    ETHEREUM_ALIASES.filter(
      ([variable, key]) => config[variable] !== undefined && config.FREEZES_EVM_CONTRACTS.ethereum?.[key] !== undefined,
    ).map(([variable, key]) => `${variable}: FREEZES_EVM_CONTRACTS sets ethereum.${key} too; set one of them`),
});

export type ListsConfig = SliceConfig<typeof listsConfigSlice>;
