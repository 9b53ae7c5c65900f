import type { BatchesConfig } from '../batches/config';
import type { BillingConfig } from '../billing/config';
import type { CasesConfig } from '../cases/config';
import type { CustomLabelsConfig } from '../custom-labels/config';
import type { EntitiesConfig } from '../entities/config';
import type { HistoryConfig } from '../history/config';
import type { IdentityConfig } from '../identity/config';
import type { ListsConfig } from '../lists/config';
import type { MarketConfig } from '../market/config';
import type { MonitorsConfig } from '../monitors/config';
import { ConfigError } from '../platform/config/config-error';
import { parseConfig } from '../platform/config/parse-config';
import type { PlatformConfig } from '../platform/config/platform-config';
import type { PoliciesConfig } from '../policies/config';
import type { ScreeningConfig } from '../screening/config';
import type { X402Config } from '../x402/config';
import { FEATURES } from './features';

export { ConfigError };

/**
 * The one frozen configuration the entry points and src/app hand out: the platform's variables and every feature's
 * slice. A feature's own code takes its slice's type instead (e.g. BillingConfig); a slice left out here is a type
 * error where src/app passes the config to that feature's code.
 */
export type Config = PlatformConfig &
  ScreeningConfig &
  BillingConfig &
  IdentityConfig &
  HistoryConfig &
  MarketConfig &
  X402Config &
  ListsConfig &
  MonitorsConfig &
  BatchesConfig &
  PoliciesConfig &
  CustomLabelsConfig &
  EntitiesConfig &
  CasesConfig;

/** The slices the features declare in their module.ts, in FEATURES' order (the order problems are reported in). */
const FEATURE_SLICES = FEATURES.flatMap((feature) => (feature.config ? [feature.config] : []));

/** Parses the environment once at start; every other module receives the frozen result. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return parseConfig(FEATURE_SLICES, env) as unknown as Config;
}

/** Entry points call this: a bad config ends the process with the reasons, not a stack trace. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}
