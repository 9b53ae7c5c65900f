import type { z } from 'zod';

/** The modes a process runs in (NODE_ENV); production switches safeguards on. */
export const NODE_ENVS = ['development', 'test', 'production'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];

/**
 * One part of the configuration, declared by the code that reads it: the platform's own (platform-config.ts), or a
 * feature's through its module.ts. All slices are merged into one schema, so the environment is parsed once and
 * every problem is reported at once (parse-config.ts); a variable belongs to exactly one slice.
 */
export interface ConfigSlice<
  Variables extends z.ZodObject = z.ZodObject,
  Derived extends object = Record<never, never>,
> {
  /** The slice's environment variables, each read from its string (unset and empty strings are absent). */
  readonly variables: Variables;
  /**
   * Rules across variables, checked once every variable of every slice parsed (e.g. what production requires):
   * one `NAME: reason` line per problem, none when all is well.
   */
  problems?(config: z.output<Variables>, nodeEnv: NodeEnv): string[];
  /**
   * The values that wait for the mode (a safeguard that defaults to on in production), replacing the parsed ones:
   * worked out here, once, so that no other module reads NODE_ENV.
   */
  derive?(config: z.output<Variables>, nodeEnv: NodeEnv): Derived;
}

/** What the code of a slice receives: its variables, parsed, derived and read-only. */
export type SliceConfig<Slice> =
  Slice extends ConfigSlice<infer Variables, infer Derived>
    ? Readonly<Omit<z.output<Variables>, keyof Derived> & Derived>
    : never;

/** Declares a slice and keeps its types (FeatureModule's `config` field keeps only the shape every slice has). */
export function configSlice<Variables extends z.ZodObject, Derived extends object = Record<never, never>>(
  slice: ConfigSlice<Variables, Derived>,
): ConfigSlice<Variables, Derived> {
  return slice;
}
