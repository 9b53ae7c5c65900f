/** A configuration the process must not start with; its message lists every problem, one `  NAME: reason` line each. */
export class ConfigError extends Error {}

/** The one form every configuration problem is reported in (exit code 78 and these lines, docs/configuration.md). */
export function configErrorOf(problems: readonly string[]): ConfigError {
  return new ConfigError(`Invalid configuration:\n${problems.map((line) => `  ${line}`).join('\n')}`);
}
