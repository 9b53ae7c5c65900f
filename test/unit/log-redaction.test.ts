import { createLogger } from '../../src/platform/logging/logger';
import { withLogContext } from '../../src/platform/logging/log-context';
import { scrubSecrets } from '../../src/platform/logging/redaction';
import { httpRequestIdFrom } from '../../src/platform/http/request-id';
import { generateApiKey } from '../../src/identity/api-key-format';

function capture(level: 'debug' | 'info' | 'silent' = 'debug') {
  const lines: string[] = [];
  const log = createLogger(level, { process: 'unit' }, { write: (s: string) => void lines.push(s) });
  return { log, lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, any>) };
}

const apiKey = generateApiKey();
const jwt = 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyXzEyMyIsImV4cCI6MTl9.c2lnbmF0dXJlLWJ5dGVzLWhlcmU';
// An x402 PAYMENT-SIGNATURE header: base64 of a JSON payload.
const paymentHeader = Buffer.from(
  JSON.stringify({ x402Version: 2, payload: { signature: '0xabc', authorization: { from: '0x1' } } }),
).toString('base64');

describe('log redaction', () => {
  test.each([
    [
      'x-api-key header',
      { headers: { 'x-api-key': 'opaque-bootstrap-admin-key-1234' } },
      'opaque-bootstrap-admin-key-1234',
    ],
    ['authorization header', { req: { headers: { authorization: 'Basic dXNlcjpwYXNz' } } }, 'dXNlcjpwYXNz'],
    [
      'PayPal signature',
      { headers: { 'paypal-transmission-sig': 'T2RkIHNpZ25hdHVyZSBieXRlcw==' } },
      'T2RkIHNpZ25hdHVyZSBieXRlcw==',
    ],
    ['svix signature', { 'svix-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' }, 'g0hM9SsE'],
    ['PayFast passphrase', { itn: { passphrase: 'jt7NOE43FZPn', merchant_key: '46f0cd694581a' } }, 'jt7NOE43FZPn'],
    ['PayFast merchant key', { merchant_key: '46f0cd694581a' }, '46f0cd694581a'],
    [
      'history webhook secret',
      { 'x-activity-webhook-secret': 'shared-secret-of-the-activity-hook' },
      'shared-secret-of-the-activity-hook',
    ],
    ['x402 payment header by name', { 'payment-signature': 'opaque-payment-proof' }, 'opaque-payment-proof'],
    [
      'a config object',
      { config: { PAYPAL_CLIENT_SECRET: 'paypal-client-secret-value', PORT: 3000 } },
      'paypal-client-secret-value',
    ],
    ['token and secret fields', { token: 'session-token-value', secret: 'plain-secret-value' }, 'session-token-value'],
    [
      'header name in any case',
      { Headers: { 'X-API-Key': 'opaque-mixed-case-key-value' } },
      'opaque-mixed-case-key-value',
    ],
    [
      'signature inside an array of deliveries',
      { deliveries: [{ headers: { 'svix-signature': 'v1,opaque-array-signature' } }] },
      'opaque-array-signature',
    ],
  ])('a %s is removed by its field name', (_what, fields, secret) => {
    const { log, lines } = capture();
    log.info('delivery', fields as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(secret);
    expect(lines[0]).toContain('[REDACTED]');
  });

  test.each([
    ['our API key', `key ${apiKey} was refused`, apiKey],
    ['a JWT', `bad token ${jwt}`, jwt],
    ['a Bearer credential of any shape', 'Authorization: Bearer opaque.token-value', 'opaque.token-value'],
    ['an x402 payment header', `payment ${paymentHeader} refused`, paymentHeader.slice(0, 30)],
    ['a Clerk signing secret', 'secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw set', 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
  ])('%s is scrubbed by its shape, in the message and in any field', (_what, text, secret) => {
    const { log, lines } = capture();
    log.warn(text, { detail: { nested: [text] }, error: text });
    expect(lines[0]).not.toContain(secret);
  });

  // A PEM private key as it appears in a value (an env variable, a config dump): lines and all.
  const pem = [
    '-----BEGIN PRIVATE KEY-----',
    'MC4CAQAwBQYDK2VwBCIEIN3qPnr2Y5tAL0ySaN0cm3zKp1mYtF0p2e9e4Zg2RoGx',
    '-----END PRIVATE KEY-----',
  ].join('\n');
  const hexKey = `0x${'4c0883a69102937d6231471b5dbb6204fe512961708279f1d0b1f3c7d4e5a6b7'}`;

  test.each([
    ['credentials in a URL', 'node failed: https://rpc-user:rpc-pass-9876@node.example/v3', 'rpc-pass-9876'],
    [
      'a key in a URL query',
      'GET https://api.example/v2/api?module=account&apikey=QUERYKEY12345&page=1',
      'QUERYKEY12345',
    ],
    [
      'a Basic credential',
      'upstream said: Authorization: Basic Y2hhaW51c2VyOnMzY3JldC1wYXNz',
      'Y2hhaW51c2VyOnMzY3JldC1wYXNz',
    ],
    ['a PEM private key', `key loaded: ${pem}`, 'MC4CAQAwBQYDK2VwBCIEIN3qPnr2Y5tAL0ySaN0cm3zKp1mYtF0p2e9e4Zg2RoGx'],
    ['a PEM private key cut short', `key loaded: ${pem.slice(0, 60)}`, pem.slice(28, 60)],
    ['a hex private key', `signer ${hexKey} refused`, hexKey.slice(2)],
    [
      'an env-style *_URL',
      'start with ETHEREUM_RPC_URL=https://mainnet.example/v3/abcdef0123456789 set',
      'abcdef0123456789',
    ],
    [
      'a quoted env-style *_URL',
      'config {"BITCOIN_ESPLORA_URL":"https://esplora.example/tok-55aa66bb"}',
      'tok-55aa66bb',
    ],
    ['an env-style key', 'set X402_FACILITATOR_PRIVATE_KEY=deadbeefcafe0011', 'deadbeefcafe0011'],
  ])('%s is scrubbed by its shape, in the message and in any field', (_what, text, secret) => {
    const { log, lines } = capture();
    log.warn(text, { detail: { nested: [text] }, error: text });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(secret);
    expect(lines[0]).toContain('[REDACTED]');
  });

  // The names redaction once listed one by one (headers, PayFast fields, the config's secrets): the generic name
  // shapes must still cover each of them, in any case.
  const formerlyListedNames = [
    'x-api-key',
    'apiKey',
    'api_key',
    'privateKey',
    'password',
    'secret',
    'signature',
    'sig',
    'passphrase',
    'merchant_key',
    'merchantKey',
    'x-activity-webhook-secret',
    'paypal-transmission-sig',
    'svix-signature',
    'webhook-signature',
    'payment-signature',
    'EVIDENCE_SIGNING_KEYS',
    'BOOTSTRAP_ADMIN_API_KEY',
    'ACTIVITY_WEBHOOK_SECRET',
    'CLERK_WEBHOOK_SECRET',
    'CLERK_JWT_KEY',
    'PAYPAL_CLIENT_SECRET',
    'PAYFAST_MERCHANT_KEY',
    'PAYFAST_MERCHANT_PASSPHRASE',
    'X402_FACILITATOR_PRIVATE_KEY',
    'TRON_API_KEY',
    'ETHERSCAN_API_KEY',
    'TEMPORAL_API_KEY',
    'TEMPORAL_TLS_KEY',
  ];
  test.each(formerlyListedNames.flatMap((name) => [name, name.toLowerCase(), name.toUpperCase()]))(
    'the field %s is redacted by its name',
    (name) => {
      const { log, lines } = capture();
      log.info('delivery', { headers: { [name]: 'opaque-value-under-a-known-name' } });
      expect(lines[0]).not.toContain('opaque-value-under-a-known-name');
      expect(lines[0]).toContain('[REDACTED]');
    },
  );

  // A provider this service has never heard of: its secrets are covered by the same shapes, with no edit anywhere.
  test.each([
    ['its webhook secret setting', { config: { ACMEPAY_WEBHOOK_SECRET: 'acme-webhook-secret-value' } }],
    ['its merchant key setting', { config: { ACMEPAY_MERCHANT_KEY: 'acme-merchant-key-value' } }],
    ['its passphrase setting', { config: { ACMEPAY_MERCHANT_PASSPHRASE: 'acme-passphrase-value' } }],
    ['its private key setting', { config: { ACMEPAY_SIGNER_PRIVATE_KEY: 'acme-private-key-value' } }],
    ['its JWT key setting, in lower case', { config: { acmepay_jwt_key: 'acme-jwt-key-value' } }],
    ['its signature header', { headers: { 'acmepay-transmission-sig': 'acme-transmission-sig-value' } }],
    ['its x-…-signature header', { headers: { 'X-AcmePay-Signature': 'acme-signature-header-value' } }],
    ['its shared-secret header', { headers: { 'x-acmepay-webhook-secret': 'acme-shared-secret-value' } }],
    ['its API key header', { headers: { 'ACME-PRO-API-KEY': 'acme-api-key-header-value' } }],
  ])('a new provider: %s is redacted by its name', (_what, fields) => {
    const { log, lines } = capture();
    log.info('delivery', fields as Record<string, unknown>);
    expect(lines[0]).not.toMatch(/acme-[a-z-]+-value/);
    expect(lines[0]).toContain('[REDACTED]');
  });

  test('a new provider: its secret setting written into a message is scrubbed by its shape', () => {
    const { log, lines } = capture();
    log.warn('start with ACMEPAY_WEBHOOK_SECRET=acme0secret0value and ACMEPAY_MERCHANT_PASSPHRASE="acme0phrase"');
    expect(lines[0]).not.toContain('acme0secret0value');
    expect(lines[0]).not.toContain('acme0phrase');
  });

  test('names that only resemble a secret stay readable', () => {
    const { log, parsed } = capture();
    const fields = {
      provider: 'acmepay',
      transmissionId: 'acme-transmission-1',
      signatureValid: true,
      idempotency_key: 'batch-2024-06-01',
      keyPrefix: apiKey.slice(0, 14),
    };
    log.info('delivery', fields);
    expect(parsed()[0]).toMatchObject(fields);
  });

  test('every *_URL field and every environment-style secret name is redacted by name, in any case', () => {
    const { log, parsed } = capture();
    log.info('config', {
      config: {
        DATABASE_URL: 'postgres://app@db.internal/prod-db-name',
        tron_api_url: 'https://tron.example/plain-path-value',
        TEMPORAL_TLS_KEY: 'tls-key-material-value',
        PORT: 3000,
      },
    });
    const line = JSON.stringify(parsed()[0]);
    for (const secret of ['prod-db-name', 'plain-path-value', 'tls-key-material-value'])
      expect(line).not.toContain(secret);
    expect((parsed()[0] as Record<string, any>).config.PORT).toBe(3000);
  });

  test(
    'an Error is serialised with its causes, and a secret in its message, its cause, its stack or its own ' +
      'fields is removed, whatever the field it is logged under',
    () => {
      const cause = new Error('connect to https://cause-user:cause-pass-4321@node.example failed');
      const err = Object.assign(new Error(`refused with Basic dXNlcjpwYXNzd29yZDEy (key ${hexKey})`, { cause }), {
        config: { headers: { authorization: 'opaque-header-credential-1', 'x-api-key': 'opaque-api-key-value-2' } },
        request: { DATABASE_URL: 'postgres://u:db-pass-0000@db/app' },
      });
      err.stack = `${err.stack}
    at url ETHEREUM_RPC_URL=https://stack.example/v3/stack-key-77777`;
      const { log, lines, parsed } = capture();

      log.error('call failed', { err, failure: err, list: [{ wrapped: err }] });

      for (const secret of [
        'cause-pass-4321',
        'dXNlcjpwYXNzd29yZDEy',
        hexKey.slice(2),
        'opaque-header-credential-1',
        'opaque-api-key-value-2',
        'db-pass-0000',
        'stack-key-77777',
      ])
        expect(lines[0]).not.toContain(secret);
      const line = parsed()[0] as Record<string, any>;
      expect(line.err).toMatchObject({ type: 'Error', message: expect.stringContaining('refused with Basic') });
      // The cause's message is kept (redacted) after the error's own.
      expect(line.failure.message).toContain('connect to https://[REDACTED]@node.example failed');
      expect(line.list[0].wrapped.config.headers).toEqual({ authorization: '[REDACTED]', 'x-api-key': '[REDACTED]' });
    },
  );

  test('a sensitive field 10 levels deep is redacted, and one deeper than any real field is dropped whole', () => {
    const nest = (depth: number, leaf: Record<string, unknown>): Record<string, unknown> =>
      depth === 0 ? leaf : { [`level${depth}`]: nest(depth - 1, leaf) };
    const circular: Record<string, unknown> = { name: 'loop' };
    circular.self = circular;
    const { log, lines } = capture();

    log.info('deep', {
      ten: nest(10, { token: 'ten-levels-down-token', apiKey: 'ten-levels-down-key' }),
      error: nest(10, { err: Object.assign(new Error('deep'), { password: 'error-ten-levels-down' }) }),
      fifty: nest(50, { note: 'fifty-levels-down-value' }),
      circular,
    });

    expect(lines).toHaveLength(1);
    for (const secret of ['ten-levels-down-token', 'ten-levels-down-key', 'error-ten-levels-down', 'fifty-levels-down'])
      expect(lines[0]).not.toContain(secret);
    expect(lines[0]).toContain('"level1":{"token":"[REDACTED]"');
  });

  test('child bindings are redacted too, and errors keep their message', () => {
    const { log, parsed } = capture();
    log.child({ token: 'child-bound-token-value' }).error('failed', { err: new Error('the node refused') });
    const [line] = parsed();
    expect(line).toMatchObject({ token: '[REDACTED]', err: { type: 'Error', message: 'the node refused' } });
  });

  test('what is not secret stays readable: ids, the key display prefix, other fields', () => {
    const { log, parsed } = capture();
    log.info('job queued', {
      requestId: '6f1c0f1e-2b7e-4c55-9c8e-0d2a3f4b5c6d',
      keyPrefix: apiKey.slice(0, 14),
      chain: 'ethereum',
      address: '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c',
      note: 'Basic plan, basic authentication, url https://api.example/v1/klines?symbol=BTCUSDT',
    });
    expect(parsed()[0]).toMatchObject({
      note: 'Basic plan, basic authentication, url https://api.example/v1/klines?symbol=BTCUSDT',
      level: 'info',
      msg: 'job queued',
      process: 'unit',
      requestId: '6f1c0f1e-2b7e-4c55-9c8e-0d2a3f4b5c6d',
      keyPrefix: apiKey.slice(0, 14),
      address: '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  test('scrubSecrets leaves a line without credentials unchanged', () => {
    const line = '{"level":"info","msg":"http request","route":"/api/v1/kyt/job/:requestId","httpRequestId":"abc-123"}';
    expect(scrubSecrets(line)).toBe(line);
  });
});

describe('logger levels and context', () => {
  test('LOG_LEVEL filters, and silent writes nothing', () => {
    const info = capture('info');
    info.log.debug('hidden');
    info.log.info('shown');
    expect(info.parsed().map((l) => l.msg)).toEqual(['shown']);
    const silent = capture('silent');
    silent.log.error('never');
    expect(silent.lines).toEqual([]);
  });

  test('a child logger and the surrounding log context add their fields to every line', async () => {
    const { log, parsed } = capture();
    const child = log.child({ httpRequestId: 'abc-123' });
    await withLogContext({ workflowId: 'screening:1' }, async () => {
      await new Promise((r) => setTimeout(r, 1));
      child.info('inside');
    });
    child.info('outside');
    expect(parsed().map(({ msg, httpRequestId, workflowId }) => ({ msg, httpRequestId, workflowId }))).toEqual([
      { msg: 'inside', httpRequestId: 'abc-123', workflowId: 'screening:1' },
      { msg: 'outside', httpRequestId: 'abc-123', workflowId: undefined },
    ]);
  });
});

describe('httpRequestIdFrom', () => {
  test.each(['abc-123', 'A.b:c_d-9', 'x'.repeat(128)])('keeps the sane id %s', (id) => {
    expect(httpRequestIdFrom(id)).toBe(id);
  });
  test.each([undefined, '', 'x'.repeat(129), 'line\nbreak', 'space here', '"quoted"', 'ünïcode', '{"json":1}'])(
    'replaces %p with a UUID',
    (id) => {
      expect(httpRequestIdFrom(id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    },
  );
});
