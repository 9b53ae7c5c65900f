import { z } from 'zod';
import { configSlice, type SliceConfig } from '../platform/config/config-slice';

/** A contract address (kept lower-case, as the reference data spell EVM addresses) or `off`. */
const evmContractOrOff = z.union([
  z.literal('off'),
  z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'an EVM address (0x + 40 hex) or off')
    .transform((v) => v.toLowerCase()),
]);

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
   * Minutes between reads of the stablecoin freeze events (schedule lists-refresh:freezes; only with
   * ETHEREUM_RPC_URL or TRON_API_URL); 0 turns it off.
   */
  FREEZES_SYNC_EVERY_MINUTES: z.coerce.number().int().min(0).max(1440).default(10),
  /** Ethereum blocks the freeze reader stays behind the head, so a reorg cannot take back what it applied. */
  FREEZES_CONFIRMATIONS: z.coerce.number().int().min(0).max(1000).default(12),
  /** Where a contract without a cursor starts reading (default: one window before the confirmed head). */
  FREEZES_START_BLOCK: z.coerce.number().int().min(0).optional(),
  /** Blocks per eth_getLogs request (halved when the node calls a range too large). */
  FREEZES_WINDOW_BLOCKS: z.coerce.number().int().min(1).max(1_000_000).default(2_000),
  /** Where TRON's reader starts without a cursor (ISO 8601; default: a day before now). */
  FREEZES_TRON_START_AT: z.iso.datetime({ offset: true }).optional(),
  /** The contracts whose freeze events are read; `off` skips one. */
  FREEZES_USDT_ETHEREUM_CONTRACT: evmContractOrOff.default('0xdac17f958d2ee523a2206206994597c13d831ec7'),
  FREEZES_USDC_ETHEREUM_CONTRACT: evmContractOrOff.default('0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'),
  FREEZES_USDT_TRON_CONTRACT: z
    .union([z.literal('off'), z.string().regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'a base58 TRON address (T…) or off')])
    .default('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
});

export const listsConfigSlice = configSlice({ variables });

export type ListsConfig = SliceConfig<typeof listsConfigSlice>;
