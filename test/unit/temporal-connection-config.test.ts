import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/app/config';
import { isLoopbackAddress } from '../../src/platform/temporal/temporal-access-policy';
import { temporalConnectionOptions } from '../../src/platform/temporal/temporal-connection';

const production = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://user:pw@db.internal:5432/chainscreen',
  CLERK_WEBHOOK_SECRET: 'whsec_dGVzdC1vbmx5LWNsZXJrLXdlYmhvb2stc2VjcmV0ISE=',
  PAYPAL_WEBHOOK_ID: '1JE4291016473214C',
  PAYFAST_MERCHANT_ID: '10000100',
  PAYFAST_MERCHANT_PASSPHRASE: 'a passphrase',
  // Production refuses to start without a way to sign evidence (docs/configuration.md#evidence-signing-keys).
  EVIDENCE_KEYS_IN_DATABASE: 'true',
};

function configError(env: NodeJS.ProcessEnv): Error {
  try {
    loadConfig(env);
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected loadConfig to throw');
}

describe('Temporal access in the configuration', () => {
  test(
    'when production points at a remote Temporal frontend with nothing that authenticates, then loading ' +
      'fails naming TEMPORAL_ADDRESS and the three ways out',
    () => {
      // Arrange / Act
      const err = configError({ ...production, TEMPORAL_ADDRESS: 'temporal.internal:7233' });

      // Assert
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.message).toMatch(/^\s*TEMPORAL_ADDRESS: temporal\.internal:7233 is not on this machine/m);
      for (const remedy of [
        'TEMPORAL_TLS_CERT',
        'TEMPORAL_TLS_KEY',
        'TEMPORAL_API_KEY',
        'TEMPORAL_ALLOW_INSECURE=true',
      ])
        expect(err.message).toContain(remedy);
    },
  );

  test.each([
    ['mTLS', { TEMPORAL_TLS_CERT: '/run/secrets/client.crt', TEMPORAL_TLS_KEY: '/run/secrets/client.key' }],
    ['an API key', { TEMPORAL_API_KEY: 'tcsk-key', TEMPORAL_ADDRESS: 'eu-west-1.aws.api.temporal.io:7233' }],
    ['the explicit allowance', { TEMPORAL_ALLOW_INSECURE: 'true' }],
  ])('when production reaches a remote frontend with %s, then the configuration loads', (_name, extra) => {
    // Arrange / Act
    const config = loadConfig({ ...production, TEMPORAL_ADDRESS: 'temporal.internal:7233', ...extra });

    // Assert
    expect(config.NODE_ENV).toBe('production');
  });

  test.each(['127.0.0.1:7233', 'localhost:7233', '[::1]:7233', '127.0.0.53:7233'])(
    'when production points at the loopback address %s without credentials, then the configuration loads',
    (address) => {
      // Arrange / Act
      const config = loadConfig({ ...production, TEMPORAL_ADDRESS: address });

      // Assert
      expect(config.TEMPORAL_ADDRESS).toBe(address);
    },
  );

  test('when production runs the embedded dev server (no TEMPORAL_ADDRESS), then nothing more is required', () => {
    // Arrange / Act
    const config = loadConfig(production);

    // Assert
    expect([config.TEMPORAL_ADDRESS, config.TEMPORAL_ALLOW_INSECURE]).toEqual([undefined, false]);
  });

  test(
    'when development points at a remote frontend without credentials, ' + 'then it loads (only production refuses)',
    () => {
      // Arrange / Act
      const config = loadConfig({ TEMPORAL_ADDRESS: 'temporal:7233' });

      // Assert
      expect(config.TEMPORAL_ADDRESS).toBe('temporal:7233');
    },
  );

  test.each([
    [{ TEMPORAL_TLS_CERT: 'client.crt' }, 'TEMPORAL_TLS_KEY: required with TEMPORAL_TLS_CERT'],
    [{ TEMPORAL_TLS_KEY: 'client.key' }, 'TEMPORAL_TLS_CERT: required with TEMPORAL_TLS_KEY'],
  ])('when only half of the client certificate pair is set (%p), then loading fails naming the other', (half, line) => {
    // Arrange / Act
    const err = configError({ TEMPORAL_ADDRESS: 'temporal:7233', ...half });

    // Assert
    expect(err.message).toContain(line);
  });

  test('when TLS or an API key is set without TEMPORAL_ADDRESS, then loading fails: the dev server has no TLS', () => {
    // Arrange / Act
    const err = configError({ TEMPORAL_API_KEY: 'tcsk-key' });

    // Assert
    expect(err.message).toContain('TEMPORAL_ADDRESS: required with TEMPORAL_TLS_* or TEMPORAL_API_KEY');
  });

  test('when TEMPORAL_ALLOW_INSECURE is not a strict boolean, then loading fails naming it', () => {
    // Arrange / Act
    const err = configError({ TEMPORAL_ALLOW_INSECURE: 'yes' });

    // Assert
    expect(err.message).toMatch(/^\s*TEMPORAL_ALLOW_INSECURE:/m);
  });

  test('when nothing is set, then the internal listeners bind loopback only', () => {
    // Arrange / Act
    const config = loadConfig({});

    // Assert
    expect(config).toMatchObject({
      INTERNAL_PORT: 9463,
      INTERNAL_HOST: '127.0.0.1',
      WORKER_HTTP_PORT: 9464,
      WORKER_HTTP_HOST: '127.0.0.1',
      TEMPORAL_ALLOW_INSECURE: false,
    });
  });

  test.each([
    ['127.0.0.1:7233', true],
    ['localhost', true],
    ['[::1]:7233', true],
    ['::1', true],
    ['10.0.0.5:7233', false],
    ['temporal:7233', false],
    ['[fd00::2]:7233', false],
    ['127.example.com:7233', false],
  ])('isLoopbackAddress(%s) is %p', (address, loopback) => {
    expect(isLoopbackAddress(address)).toBe(loopback);
  });
});

describe('temporalConnectionOptions', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'temporal-options-'));
    writeFileSync(path.join(dir, 'client.crt'), '-----BEGIN CERTIFICATE-----\nY2VydA==\n-----END CERTIFICATE-----\n');
    writeFileSync(path.join(dir, 'not-pem.txt'), 'hello');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('when nothing about TLS is configured, then the options are the address alone (plaintext)', () => {
    expect(temporalConnectionOptions({ TEMPORAL_NAMESPACE: 'default' }, '127.0.0.1:7233')).toEqual({
      address: '127.0.0.1:7233',
    });
  });

  test('when the certificate is a path and the key is PEM text with literal \\n, then both are read as PEM', () => {
    // Arrange
    const keyText = '-----BEGIN PRIVATE KEY-----\\na2V5\\n-----END PRIVATE KEY-----';

    // Act
    const options = temporalConnectionOptions(
      {
        TEMPORAL_NAMESPACE: 'default',
        TEMPORAL_TLS_CERT: path.join(dir, 'client.crt'),
        TEMPORAL_TLS_KEY: keyText,
        TEMPORAL_TLS_SERVER_NAME: 'temporal.internal',
      },
      'temporal:7233',
    );

    // Assert
    expect(options.apiKey).toBeUndefined();
    expect(options.tls?.serverNameOverride).toBe('temporal.internal');
    expect(options.tls?.serverRootCACertificate).toBeUndefined();
    expect(options.tls?.clientCertPair?.crt.toString()).toContain('-----BEGIN CERTIFICATE-----\nY2VydA==\n');
    expect(options.tls?.clientCertPair?.key.toString()).toBe(
      '-----BEGIN PRIVATE KEY-----\na2V5\n-----END PRIVATE KEY-----',
    );
  });

  test('when an API key is configured, then TLS is on and the namespace rides along for Temporal Cloud', () => {
    expect(
      temporalConnectionOptions({ TEMPORAL_NAMESPACE: 'prod.a1b2c', TEMPORAL_API_KEY: 'tcsk-key' }, 'x:7233'),
    ).toEqual({
      address: 'x:7233',
      tls: {},
      apiKey: 'tcsk-key',
      metadata: { 'temporal-namespace': 'prod.a1b2c' },
    });
  });

  test.each([
    ['missing.crt', /TEMPORAL_TLS_CA: cannot read the PEM file .*missing\.crt \(ENOENT\)/],
    ['not-pem.txt', /TEMPORAL_TLS_CA: .*not-pem\.txt holds no PEM block/],
  ])('when TEMPORAL_TLS_CA names %s, then a ConfigError names the variable and the path', (file, message) => {
    // Arrange
    const config = { TEMPORAL_NAMESPACE: 'default', TEMPORAL_TLS_CA: path.join(dir, file) };

    // Act / Assert
    expect(() => temporalConnectionOptions(config, 'temporal:7233')).toThrow(ConfigError);
    expect(() => temporalConnectionOptions(config, 'temporal:7233')).toThrow(message);
  });
});
