import { z } from 'zod';
import { configErrorOf } from './config-error';
import type { ConfigSlice } from './config-slice';
import { type PlatformConfig, platformConfigSlice } from './platform-config';

/**
 * The platform's slice and the features' in one object schema; a variable two slices declare is a programming error.
 */
function mergedVariables(slices: readonly ConfigSlice[]): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const slice of slices) {
    for (const [name, variable] of Object.entries(slice.variables.shape)) {
      if (name in shape) throw new Error(`${name} is declared by two config slices`);
      shape[name] = variable;
    }
  }
  return z.object(shape);
}

/**
 * Parses the environment once, for the platform and the given feature slices: every variable, then every slice's
 * rules across variables, each step reporting all of its problems in one ConfigError; then each slice derives its
 * mode-dependent values. The result is frozen: every other module receives it instead of reading the environment.
 */
export function parseConfig(
  featureSlices: readonly ConfigSlice[],
  env: NodeJS.ProcessEnv,
): Readonly<PlatformConfig & Record<string, unknown>> {
  const slices = [platformConfigSlice as ConfigSlice, ...featureSlices];
  // `PORT=` in a .env file means "not set", not 0 (which z.coerce would make of an empty string).
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = mergedVariables(slices).safeParse(present);
  if (!parsed.success)
    throw configErrorOf(parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  const values = parsed.data as PlatformConfig & Record<string, unknown>;
  const problems = slices.flatMap((slice) => slice.problems?.(values, values.NODE_ENV) ?? []);
  if (problems.length > 0) throw configErrorOf(problems);
  const derived = Object.assign({}, values, ...slices.map((slice) => slice.derive?.(values, values.NODE_ENV) ?? {}));
  return Object.freeze(derived);
}
