import { ConfigError, loadConfig } from '../../src/app/config';
import { createLogger } from '../../src/platform/logging/logger';
import { resolveLogFormat } from '../../src/platform/logging/log-format';
import { prettyDestination } from '../../src/platform/logging/pretty-destination';
import { generateApiKey } from '../../src/identity/api-key-format';

/** A logger writing pretty lines (no colour, so the text is plain) into `lines`. */
function capturePretty() {
  const lines: string[] = [];
  const destination = prettyDestination({ write: (s: string) => void lines.push(s) }, { colorize: false });
  const log = createLogger('debug', { process: 'unit' }, destination);
  return { log, lines };
}

describe('log format', () => {
  test.each([
    ['auto', true, 'pretty'],
    ['auto', false, 'json'],
    ['json', true, 'json'],
    ['json', false, 'json'],
    ['pretty', true, 'pretty'],
    ['pretty', false, 'pretty'],
  ] as const)('LOG_FORMAT=%s with a terminal: %s writes %s', (format, tty, expected) => {
    expect(resolveLogFormat(format, tty)).toBe(expected);
  });

  test('LOG_FORMAT defaults to auto and accepts only auto, json and pretty', () => {
    expect(loadConfig({}).LOG_FORMAT).toBe('auto');
    expect(loadConfig({ LOG_FORMAT: 'json' }).LOG_FORMAT).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(ConfigError);
  });

  test('a pretty line is readable: time, level and message, the fields on the same line, no pid or hostname', () => {
    const { log, lines } = capturePretty();
    log.info('migration applied', { migration: '001_accounts.sql' });
    expect(lines).toHaveLength(1);
    const time = String.raw`\[\d\d:\d\d:\d\d\.\d{3}\]`;
    expect(lines[0]).toMatch(new RegExp(`^${time} INFO: migration applied \\{"migration":"001_accounts.sql"\\}\\n$`));
    expect(() => JSON.parse(lines[0] ?? '{}')).toThrow();
  });

  test('an error message field stays on its line; a serialised err keeps its stack below', () => {
    const { log, lines } = capturePretty();
    log.error('cleanup failed', { error: 'Error: pool ended' });
    log.error('crashed', { err: new Error('the node refused') });
    expect(lines[0]).toMatch(/ERROR: cleanup failed \{"error":"Error: pool ended"\}\n$/);
    expect(lines[1]).toMatch(/ERROR: crashed ?\n\s+err: \{/);
    expect(lines[1]).toContain('the node refused');
  });

  test('an API key is scrubbed by its shape in pretty mode too, in the message and in any field', () => {
    const apiKey = generateApiKey();
    expect(apiKey).toMatch(/^cs_live_[A-Za-z0-9_-]{43}$/);
    const { log, lines } = capturePretty();
    log.warn(`key ${apiKey} was refused`, { detail: { nested: [apiKey] }, error: `bad key ${apiKey}` });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(apiKey.slice('cs_live_'.length));
    expect(lines[0]).toContain('key cs_live_[REDACTED] was refused');
  });

  test('a secret under a sensitive name is redacted in pretty mode too', () => {
    const { log, lines } = capturePretty();
    log.info('delivery', { headers: { 'x-api-key': 'opaque-bootstrap-admin-key-1234' } });
    expect(lines[0]).not.toContain('opaque-bootstrap-admin-key-1234');
    expect(lines[0]).toContain('[REDACTED]');
  });

  test('the pretty destination scrubs on its own, whatever wrote the line', () => {
    const apiKey = generateApiKey();
    const out: string[] = [];
    const destination = prettyDestination({ write: (s: string) => void out.push(s) }, { colorize: false });
    const line = JSON.stringify({ level: 'error', time: new Date().toISOString(), msg: `refused ${apiKey}` });
    destination.write(`${line}\n`);
    expect(out.join('')).not.toContain(apiKey);
    expect(out.join('')).toContain('refused cs_live_[REDACTED]');
  });
});
