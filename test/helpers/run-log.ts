/**
 * The whole-run log and the secrets it must not contain. Under jest, global-setup names two files in a
 * directory of the run's own (test-artifacts/logs/<time>-<pid>/): every
 * test stack logs at debug into TEST_RUN_LOG (one file for the run, one line per JSON object, each tagged with
 * the test file that wrote it), and every credential a test creates or sends is appended to TEST_RUN_SECRETS.
 * test/zz-final/logs-hold-no-secrets.test.ts, run last by test/setup/run-last-sequencer.js, reads both.
 * Outside jest (benchmarks) neither is set and stacks stay silent.
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import pino, { type DestinationStream } from 'pino';
import { createLogger, type LogFields, type Logger, type LogLevel } from '../../src/platform/logging/logger';

/** Secrets shorter than this are not recorded: they would match by chance (and none of ours is that short). */
const MIN_SECRET_LENGTH = 10;

/** Header names whose values are credentials, as the stack's clients send them. */
const SENSITIVE_HEADERS = new Set([
  'x-api-key',
  'authorization',
  'x-activity-webhook-secret',
  'paypal-transmission-sig',
  'svix-signature',
  'webhook-signature',
  'payment-signature',
  'x-payment',
]);

let destination: DestinationStream | undefined;

/** The test file running now (relative), so the final test can tell which files wrote lines. */
function currentTestFile(): string | undefined {
  const testPath = (globalThis as { expect?: { getState?: () => { testPath?: string } } }).expect?.getState?.()
    .testPath;
  return testPath ? path.relative(process.cwd(), testPath) : undefined;
}

export function runLogEnabled(): boolean {
  return Boolean(process.env.TEST_RUN_LOG);
}

/**
 * A logger into the run's file at `level` (silent when there is none). Written synchronously with O_APPEND:
 * jest exits without waiting for buffers (forceExit), and a line lost there would hide a leak.
 */
export function testRunLogger(base: LogFields = {}, level: LogLevel = 'debug'): Logger {
  const file = process.env.TEST_RUN_LOG;
  if (!file) return createLogger('silent');
  destination ??= pino.destination({ dest: file, sync: true, append: true, mkdir: true });
  return createLogger(level, { testFile: currentTestFile(), ...base }, destination);
}

/**
 * A debug logger whose lines a test reads (`onLine` gets each serialised line) and which also go to the
 * run's log, so a test that inspects its own lines is still covered by the final secrets check.
 */
export function capturingLogger(onLine: (line: string) => void, base: LogFields = {}): Logger {
  const file = process.env.TEST_RUN_LOG;
  if (file) destination ??= pino.destination({ dest: file, sync: true, append: true, mkdir: true });
  const run = destination;
  return createLogger(
    'debug',
    { testFile: currentTestFile(), ...base },
    {
      write: (line: string) => {
        onLine(line);
        run?.write(line);
      },
    },
  );
}

/** Remembers a credential the run used, for the final grep of the run's log. */
export function recordSecret(value: string | undefined | null): void {
  const file = process.env.TEST_RUN_SECRETS;
  if (!file || !value || value.length < MIN_SECRET_LENGTH) return;
  // One secret per line: a value with a line break is recorded line by line (each part must not leak either).
  const lines = value.split(/\r?\n/).filter((line) => line.length >= MIN_SECRET_LENGTH);
  if (lines.length > 0) appendFileSync(file, `${lines.join('\n')}\n`);
}

/** Records the values of the credential headers in a request a test is about to send. */
export function recordSensitiveHeaders(headers: Record<string, string> | undefined): void {
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!SENSITIVE_HEADERS.has(name.toLowerCase())) continue;
    recordSecret(value);
    // "Bearer <token>": the token alone is the secret.
    const bearer = /^Bearer\s+(.+)$/i.exec(value);
    if (bearer) recordSecret(bearer[1]);
  }
}

/**
 * The config fields of a stack that hold secrets
 * (names as in the config schema, src/platform/config.ts and the features' slices).
 */
const SECRET_CONFIG = [
  'BOOTSTRAP_ADMIN_API_KEY',
  'ACTIVITY_WEBHOOK_SECRET',
  'CLERK_WEBHOOK_SECRET',
  'PAYPAL_CLIENT_SECRET',
  'PAYFAST_MERCHANT_KEY',
  'PAYFAST_MERCHANT_PASSPHRASE',
  'X402_FACILITATOR_PRIVATE_KEY',
  'TRON_API_KEY',
  'ETHERSCAN_API_KEY',
] as const;

export function recordConfigSecrets(config: Partial<Record<(typeof SECRET_CONFIG)[number], string | undefined>>): void {
  for (const name of SECRET_CONFIG) recordSecret(config[name]);
}
