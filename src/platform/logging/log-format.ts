/**
 * How log lines reach stderr: `json`, one object per line, for whatever collects them (a file, a log
 * shipper, CI); `pretty`, through pino-pretty, for a person reading a terminal; `auto` picks pretty only
 * when stderr is a terminal, so a redirect or a pipe still gets JSON without anyone asking for it.
 */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export function resolveLogFormat(format: LogFormat, stderrIsTty: boolean): 'json' | 'pretty' {
  if (format === 'auto') return stderrIsTty ? 'pretty' : 'json';
  return format;
}
