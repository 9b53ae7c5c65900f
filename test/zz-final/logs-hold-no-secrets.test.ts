/**
 * Runs last (test/setup/run-last-sequencer.js): greps the log of the whole test run, written at debug by
 * every test stack (test/helpers/run-log.ts), for every credential the run created or sent: API keys,
 * webhook secrets and signatures, the PayFast passphrase, session JWTs, x402 payment headers.
 */
import { existsSync, readFileSync } from 'node:fs';
import { findSecrets } from '../helpers/secret-finder';

/** The files global-setup named for this run (test-artifacts/logs/<run>/), and the selection the sequencer saw. */
const read = (file: string | undefined) => (file && existsSync(file) ? readFileSync(file, 'utf8') : '');
const lines = read(process.env.TEST_RUN_LOG).split('\n').filter(Boolean);
const secrets = read(process.env.TEST_RUN_SECRETS).split('\n').filter(Boolean);
const selectedFiles: string[] = JSON.parse(process.env.TEST_RUN_FILES ?? '[]');
/** The test files of this run that start a stack, and so must have written lines. */
const stackFiles = selectedFiles.filter(
  (file) => !file.includes('zz-final') && /startTestStack\(/.test(readFileSync(file, 'utf8')),
);

describe('the whole test run’s log', () => {
  test('was written by every test file of the run that started a stack, as JSON lines', () => {
    if (stackFiles.length === 0)
      throw new Error('no test file of this run starts a stack: run this test with the suite (npm test), not alone');
    expect(lines.length).toBeGreaterThan(stackFiles.length);
    const writers = new Set<string>();
    const malformed: string[] = [];
    for (const line of lines) {
      try {
        const entry = JSON.parse(line) as { testFile?: string; level?: string; msg?: string; time?: string };
        if (entry.testFile) writers.add(entry.testFile);
        if (typeof entry.level !== 'string' || typeof entry.msg !== 'string' || typeof entry.time !== 'string')
          malformed.push(line.slice(0, 200));
      } catch {
        malformed.push(line.slice(0, 200));
      }
    }
    expect(malformed).toEqual([]);
    expect(stackFiles.filter((file) => !writers.has(file))).toEqual([]);
  });

  test('holds none of the secrets the run used', () => {
    expect(secrets.length).toBeGreaterThan(0);
    const leaks = findSecrets(lines, secrets).map(({ lineNumber, secret }) => {
      const entry = JSON.parse(lines[lineNumber - 1] as string) as { testFile?: string; msg?: string };
      return (
        `line ${lineNumber} (${entry.testFile ?? '?'}: "${entry.msg ?? ''}") ` +
        `holds ${secret.slice(0, 6)}…${secret.length} chars`
      );
    });
    expect({ log: process.env.TEST_RUN_LOG, leaks }).toEqual({ log: process.env.TEST_RUN_LOG, leaks: [] });
  });
});
