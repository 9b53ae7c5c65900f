import type { DestinationStream } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { scrubSecrets } from './redaction';

/**
 * A destination that turns each finished JSON line into one readable line (time, level, message, then the
 * fields as compact JSON) and writes it to `out`. It prettifies the line as scrubbed: pino's streamWrite hook
 * scrubs before any destination sees it, and the scrub runs here again so this stream is safe on its own.
 * Synchronous, like the JSON destination, so a line logged just before an exit still reaches the terminal.
 */
export function prettyDestination(out: DestinationStream, options: { colorize?: boolean } = {}): DestinationStream {
  const prettify = prettyFactory({
    // pino-pretty's default: colour when the terminal supports it (NO_COLOR and FORCE_COLOR are honoured).
    ...(options.colorize === undefined ? {} : { colorize: options.colorize }),
    singleLine: true,
    // Only pino's serialised `err` gets the multi-line error layout; our `error` field is a message string.
    errorLikeObjectKeys: ['err'],
    translateTime: 'SYS:HH:MM:ss.l',
    // The same on every line of one process's terminal; the JSON format keeps them for collectors.
    ignore: 'pid,hostname,process',
  });
  return { write: (line: string) => out.write(prettify(scrubSecrets(line))) };
}
