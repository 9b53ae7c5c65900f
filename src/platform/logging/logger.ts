/**
 * The service's logger: pino, one JSON object per line on stderr (stdout stays for what a person reads,
 * like `npm start`'s banner), or readable lines on a terminal (see stderrDestination). Call sites keep the
 * `log.info(msg, fields)` order; this adapter turns it into pino's `(fields, msg)`. Secrets are removed twice
 * (src/platform/logging/redaction.ts): by field name at any depth (errors included), and by shape over every
 * finished line (URL credentials, Basic and Bearer, PEM and hex private keys, `*_URL=` settings), before either
 * format.
 */
import { hostname } from 'node:os';
import pino, { type DestinationStream, type Logger as PinoLogger } from 'pino';
import { currentLogContext } from './log-context';
import { resolveLogFormat, type LogFormat } from './log-format';
import { prettyDestination } from './pretty-destination';
import { redactFields, scrubSecrets } from './redaction';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger whose every line also carries `bindings` (a request's httpRequestId, a component name). */
  child(bindings: LogFields): Logger;
  readonly level: LogLevel;
}

const asRedacted = (value: unknown) => value;

function adapt(p: PinoLogger, level: LogLevel): Logger {
  return {
    debug: (msg, fields) => p.debug(fields ?? {}, msg),
    info: (msg, fields) => p.info(fields ?? {}, msg),
    warn: (msg, fields) => p.warn(fields ?? {}, msg),
    error: (msg, fields) => p.error(fields ?? {}, msg),
    // pino runs formatters.bindings on the base only, so a child's bindings are redacted here.
    child: (bindings) => adapt(p.child(redactFields(bindings)), level),
    level,
  };
}

/**
 * stderr, written synchronously: a line logged just before process.exit or a crash is not lost in a buffer.
 * JSON unless `format` (config.LOG_FORMAT) resolves to pretty; callers without a config keep JSON.
 */
export function stderrDestination(format: LogFormat = 'json'): DestinationStream {
  const stderr = pino.destination({ dest: 2, sync: true });
  return resolveLogFormat(format, process.stderr.isTTY === true) === 'pretty' ? prettyDestination(stderr) : stderr;
}

/**
 * @param destination where lines go (tests pass a file or an in-memory stream); default stderr.
 */
export function createLogger(
  level: LogLevel,
  base: LogFields = {},
  destination: DestinationStream = stderrDestination(),
): Logger {
  const p = pino(
    {
      level,
      base: { pid: process.pid, hostname: hostname(), ...base },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Sensitive field names are redacted in each call's fields and in the base.
      formatters: { level: (label) => ({ level: label }), log: redactFields, bindings: redactFields },
      // redactFields has serialised every error already (causes included) and redacted its fields at any depth.
      serializers: { err: asRedacted, error: asRedacted },
      // Fields of the surrounding withLogContext (an activity's workflowId and httpRequestId).
      mixin: () => ({ ...currentLogContext() }),
      hooks: { streamWrite: scrubSecrets },
    },
    destination,
  );
  return adapt(p, level);
}

export function errorFields(err: unknown): LogFields {
  return err instanceof Error ? { error: err.message, errorName: err.name } : { error: String(err) };
}
