import { ConfigError } from '../platform/config/config-error';
import type { SliceConfig } from '../platform/config/config-slice';
import { parseConfig } from '../platform/config/parse-config';
import type { PlatformConfig } from '../platform/config/platform-config';
import { FEATURES, type ListedModules } from './features';

export { ConfigError };

type UnionToIntersection<U> = (U extends unknown ? (union: U) => void : never) extends (all: infer I) => void
  ? I
  : never;

/** The variables of one module's slice (never, so left out of the union, for a module without one). */
type ModuleConfig<Module> = Module extends { readonly config: infer Slice } ? SliceConfig<Slice> : never;

/**
 * The one frozen configuration the entry points and src/app hand out: the platform's variables and every listed
 * feature's slice, derived from FEATURES, so a feature added to the list adds its variables here with no other edit.
 * A feature's own code takes its slice's type instead (e.g. BillingConfig).
 */
export type Config = PlatformConfig & UnionToIntersection<ModuleConfig<ListedModules[number]>>;

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
