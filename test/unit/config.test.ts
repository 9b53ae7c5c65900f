import { generateKeyPairSync } from 'node:crypto';
import { ConfigError, loadConfig } from '../../src/app/config';
import { configSlice } from '../../src/platform/config/config-slice';
import { parseConfig } from '../../src/platform/config/parse-config';
import { z } from 'zod';

function configError(env: NodeJS.ProcessEnv): Error {
  try {
    loadConfig(env);
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected loadConfig to throw');
}

describe('loadConfig', () => {
  test('when the environment is empty, then the documented defaults apply', () => {
    // Arrange
    const env = {};

    // Act
    const config = loadConfig(env);

    // Assert
    expect(config).toMatchObject({
      NODE_ENV: 'development',
      PORT: 3000,
      LOG_LEVEL: 'info',
      DATA_DIR: '.data',
      DATABASE_POOL_SIZE: 10,
      EMBEDDED_PG_PORT: 54329,
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_TASK_QUEUE: 'chainscreen',
      TEMPORAL_PORT: 7233,
      TEMPORAL_UI_PORT: 8233,
      CLERK_AUTHORIZED_PARTIES: [],
      CHAIN_REQUEST_TIMEOUT_MS: 10_000,
      CRAWL_TIMEOUT_DEFAULT_MS: 8000,
      CRAWL_TIMEOUT_MAX_MS: 120_000,
      SYNC_ANALYZE_WAIT_MS: 120_000,
      ANALYSIS_HEARTBEAT_TIMEOUT_MS: 10_000,
      REFERENCE_DATA_DIR: 'data/risk',
      LOAD_REFERENCE_DATA: true,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.BOOTSTRAP_ADMIN_API_KEY).toBeUndefined();
  });

  test('when PORT is a numeric string, then it is coerced to a number', () => {
    // Arrange / Act
    const config = loadConfig({ PORT: '8080' });

    // Assert
    expect(config.PORT).toBe(8080);
  });

  test('when PORT is "abc", then a ConfigError naming PORT is thrown', () => {
    // Arrange / Act
    const err = configError({ PORT: 'abc' });

    // Assert
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toMatch(/^\s*PORT:/m);
  });

  test('when PORT is above 65535, then a ConfigError naming PORT is thrown', () => {
    // Arrange / Act
    const err = configError({ PORT: '70000' });

    // Assert
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toContain('PORT');
  });

  test.each([
    ['false', false],
    ['0', false],
    ['true', true],
    ['1', true],
  ])('when LOAD_REFERENCE_DATA is "%s", then it reads as %p', (value, expected) => {
    // Arrange / Act
    const config = loadConfig({ LOAD_REFERENCE_DATA: value });

    // Assert
    expect(config.LOAD_REFERENCE_DATA).toBe(expected);
  });

  test('when a variable is set to the empty string, then it counts as unset and takes its default', () => {
    const config = loadConfig({ LOAD_REFERENCE_DATA: '', PORT: '' });
    expect(config.LOAD_REFERENCE_DATA).toBe(true);
    expect(config.PORT).toBe(3000);
  });

  test.each(['yes', 'no', 'False'])(
    'when LOAD_REFERENCE_DATA is "%s", then a ConfigError naming it is thrown',
    (value) => {
      // Arrange / Act
      const err = configError({ LOAD_REFERENCE_DATA: value });

      // Assert
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.message).toContain('LOAD_REFERENCE_DATA');
    },
  );

  test('when NODE_ENV is production without DATABASE_URL, then a ConfigError naming DATABASE_URL is thrown', () => {
    // Arrange / Act
    const err = configError({ NODE_ENV: 'production' });

    // Assert
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toContain('DATABASE_URL');
  });

  const productionSecrets = {
    DATABASE_URL: 'postgres://user:pw@db.internal:5432/chainscreen',
    CLERK_WEBHOOK_SECRET: 'whsec_dGVzdC1vbmx5LWNsZXJrLXdlYmhvb2stc2VjcmV0ISE=',
    PAYPAL_WEBHOOK_ID: '1JE4291016473214C',
    PAYFAST_MERCHANT_ID: '10000100',
    PAYFAST_MERCHANT_PASSPHRASE: 'a passphrase',
    EVIDENCE_SIGNING_KEYS: JSON.stringify({
      keys: [{ ...generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }), kid: 'evidence-test' }],
    }),
  };

  test(
    'when NODE_ENV is production with every webhook secret, then the configuration loads with ' +
      'the PayFast safeguards on',
    () => {
      // Arrange / Act
      const config = loadConfig({ NODE_ENV: 'production', ...productionSecrets });

      // Assert
      expect(config.NODE_ENV).toBe('production');
      expect(config.DATABASE_URL).toBe('postgres://user:pw@db.internal:5432/chainscreen');
      expect(config.PAYFAST_VERIFY_SOURCE).toBe(true);
      expect(config.PAYFAST_SERVER_VALIDATION).toBe(true);
    },
  );

  test.each(Object.keys(productionSecrets).filter((k) => k !== 'DATABASE_URL'))(
    'when NODE_ENV is production without %s, then a ConfigError naming it is thrown',
    (name) => {
      // Arrange / Act
      const err = configError({ NODE_ENV: 'production', ...productionSecrets, [name]: '' });

      // Assert
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.message).toContain(`${name}: required when NODE_ENV=production`);
    },
  );

  test(
    'when NODE_ENV is development, then the PayFast safeguards ' + 'that need the internet are off unless switched on',
    () => {
      // Arrange / Act
      const off = loadConfig({});
      const on = loadConfig({ PAYFAST_VERIFY_SOURCE: 'true', PAYFAST_SERVER_VALIDATION: '1' });
      const prodOff = loadConfig({ NODE_ENV: 'production', ...productionSecrets, PAYFAST_SERVER_VALIDATION: 'false' });

      // Assert
      expect([off.PAYFAST_VERIFY_SOURCE, off.PAYFAST_SERVER_VALIDATION]).toEqual([false, false]);
      expect([on.PAYFAST_VERIFY_SOURCE, on.PAYFAST_SERVER_VALIDATION]).toEqual([true, true]);
      expect(prodOff.PAYFAST_SERVER_VALIDATION).toBe(false);
    },
  );

  test('when CLERK_WEBHOOK_SECRET lacks the whsec_ prefix, then a ConfigError naming it is thrown', () => {
    // Arrange / Act
    const err = configError({ CLERK_WEBHOOK_SECRET: 'not-a-secret' });

    // Assert
    expect(err.message).toContain('CLERK_WEBHOOK_SECRET');
  });

  test('when BOOTSTRAP_ADMIN_API_KEY is shorter than 24 characters, then a ConfigError naming it is thrown', () => {
    // Arrange / Act
    const err = configError({ BOOTSTRAP_ADMIN_API_KEY: 'x'.repeat(23) });

    // Assert
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toContain('BOOTSTRAP_ADMIN_API_KEY');
    expect(err.message).toContain('at least 24 characters');
  });

  test('when BOOTSTRAP_ADMIN_API_KEY has exactly 24 characters, then it is accepted', () => {
    // Arrange / Act
    const config = loadConfig({ BOOTSTRAP_ADMIN_API_KEY: 'k'.repeat(24) });

    // Assert
    expect(config.BOOTSTRAP_ADMIN_API_KEY).toBe('k'.repeat(24));
  });

  test(
    'when PAYFAST_MERCHANT_PASSPHRASE is shorter than 12 characters, then a ConfigError names it and why; ' +
      "12 characters (PayFast's sandbox passphrase) are accepted",
    () => {
      // Arrange / Act
      const short = configError({ PAYFAST_MERCHANT_PASSPHRASE: 'secret12345' });
      const config = loadConfig({ PAYFAST_MERCHANT_PASSPHRASE: 'jt7NOE43FZPn' });

      // Assert
      expect(short).toBeInstanceOf(ConfigError);
      expect(short.message).toContain('PAYFAST_MERCHANT_PASSPHRASE: at least 12 characters');
      expect(short.message).not.toContain('secret12345');
      expect(config.PAYFAST_MERCHANT_PASSPHRASE).toBe('jt7NOE43FZPn');
    },
  );

  test('when CLERK_AUTHORIZED_PARTIES is a comma list with spaces and blanks, then it is split and trimmed', () => {
    // Arrange / Act
    const config = loadConfig({ CLERK_AUTHORIZED_PARTIES: ' https://a.example.com , ,https://b.example.com,' });

    // Assert
    expect(config.CLERK_AUTHORIZED_PARTIES).toEqual(['https://a.example.com', 'https://b.example.com']);
  });

  test('when NODE_ENV is not one of the known values, then a ConfigError is thrown', () => {
    // Arrange / Act
    const err = configError({ NODE_ENV: 'staging' });

    // Assert
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toContain('NODE_ENV');
  });

  test(
    'when EVM_HISTORY_SOURCE is etherscan without ETHERSCAN_API_KEY, then a ConfigError names the key; ' +
      'with one, the Etherscan defaults apply',
    () => {
      // Arrange / Act
      const err = configError({ EVM_HISTORY_SOURCE: 'etherscan' });
      const config = loadConfig({ EVM_HISTORY_SOURCE: 'etherscan', ETHERSCAN_API_KEY: 'K' });

      // Assert
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.message).toContain('ETHERSCAN_API_KEY: required when EVM_HISTORY_SOURCE=etherscan');
      expect(config).toMatchObject({
        ETHERSCAN_API_URL: 'https://api.etherscan.io/v2/api',
        ETHERSCAN_RATE_PER_SECOND: 3,
        EVM_LOGS_WINDOW_BLOCKS: 5_000,
        EVM_LOGS_MAX_WINDOWS: 10,
      });
      expect(loadConfig({}).EVM_HISTORY_SOURCE).toBe('auto');
    },
  );

  test('when the configuration is loaded, then the result is frozen', () => {
    // Arrange
    const config = loadConfig({});

    // Act
    const assign = () => {
      (config as { PORT: number }).PORT = 1;
    };

    // Assert
    expect(Object.isFrozen(config)).toBe(true);
    expect(assign).toThrow(TypeError);
    expect(config.PORT).toBe(3000);
  });

  test(
    'when NODE_ENV is production without EVIDENCE_SIGNING_KEYS, then it refuses to start unless ' +
      'EVIDENCE_KEYS_IN_DATABASE=true accepts the key kept in Postgres',
    () => {
      // Arrange
      const withoutKeys = { NODE_ENV: 'production', ...productionSecrets, EVIDENCE_SIGNING_KEYS: '' };

      // Act
      const refused = configError(withoutKeys);
      const refusedWhenFalse = configError({ ...withoutKeys, EVIDENCE_KEYS_IN_DATABASE: 'false' });
      const accepted = loadConfig({ ...withoutKeys, EVIDENCE_KEYS_IN_DATABASE: 'true' });
      const configured = loadConfig({ NODE_ENV: 'production', ...productionSecrets });

      // Assert
      for (const err of [refused, refusedWhenFalse]) {
        expect(err).toBeInstanceOf(ConfigError);
        expect(err.message).toContain('EVIDENCE_SIGNING_KEYS: required when NODE_ENV=production');
        expect(err.message).toContain('EVIDENCE_KEYS_IN_DATABASE=true');
      }
      expect(accepted.EVIDENCE_SIGNING_KEYS).toBeUndefined();
      expect(accepted.EVIDENCE_KEYS_IN_DATABASE).toBe(true);
      expect(configured.EVIDENCE_SIGNING_KEYS?.keys.map((k) => k.kid)).toEqual(['evidence-test']);
      expect(configured.EVIDENCE_KEYS_IN_DATABASE).toBe(false);
      // Development keeps the Postgres key without being asked.
      expect(loadConfig({}).EVIDENCE_KEYS_IN_DATABASE).toBe(false);
    },
  );

  test('when the environment is empty, then every feature slice contributes its defaults to the one config', () => {
    // Arrange / Act
    const config = loadConfig({});

    // Assert
    expect(config).toMatchObject({
      PAYPAL_MODE: 'sandbox',
      PAYFAST_REFUND_WAIT_MS: 10_000,
      MAX_ACTIVE_API_KEYS_PER_ACCOUNT: 20,
      MARKET_LIVE_CONNECTOR: 'off',
      X402_REPORT_TIMEOUT_MS: 20_000,
      OFAC_MAX_AGE_DAYS: 8,
      MONITOR_EVERY_HOURS_DEFAULT: 24,
      BATCH_CONCURRENCY: 20,
      POLICY_EDIT_LIMIT_PER_MINUTE: 30,
      MAX_CUSTOM_LABELS_PER_ACCOUNT: 10_000,
      CLUSTER_REREAD_AFTER_MS: 3_600_000,
      MAX_OPEN_CASES_PER_ACCOUNT: 10_000,
      CASE_FALSE_POSITIVE_SUPPRESSION_DAYS: 90,
    });
    expect(config.CASE_SLA_SECONDS.critical).toEqual({ assign: 3600, decide: 86400 });
    expect(config.ACTIVITY_WEBHOOK_SECRET).toBeUndefined();
  });

  test('when rules of several slices fail, then one ConfigError names every problem', () => {
    // Arrange / Act
    const err = configError({
      NODE_ENV: 'production',
      CLERK_JWT_KEY: 'a key',
      EVM_HISTORY_SOURCE: 'etherscan',
      EVIDENCE_KEYS_IN_DATABASE: 'true',
    });

    // Assert
    expect(err).toBeInstanceOf(ConfigError);
    for (const line of [
      'DATABASE_URL: required when NODE_ENV=production',
      'ETHERSCAN_API_KEY: required when EVM_HISTORY_SOURCE=etherscan',
      'PAYPAL_WEBHOOK_ID: required when NODE_ENV=production',
      'PAYFAST_MERCHANT_PASSPHRASE: required when NODE_ENV=production',
      'CLERK_WEBHOOK_SECRET: required when NODE_ENV=production',
      'CLERK_ISSUER: required when NODE_ENV=production and CLERK_JWT_KEY is set',
    ])
      expect(err.message).toContain(`\n  ${line}`);
  });

  test('when a slice declares a variable another slice declares, then parsing refuses to start', () => {
    // Arrange
    const clash = configSlice({ variables: z.object({ PORT: z.string().optional() }) });

    // Act
    const parse = () => parseConfig([clash], {});

    // Assert
    expect(parse).toThrow('PORT is declared by two config slices');
  });
});
