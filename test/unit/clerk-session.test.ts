import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createClerkSessionVerifier, InvalidSessionTokenError, looksLikeJwt } from '../../src/identity/clerk-session';
import { ConfigError, loadConfig } from '../../src/app/config';

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PUBLIC_PEM = publicKey.export({ type: 'spki', format: 'pem' }).toString();

const NOW_MS = 1_790_000_000_000;
const NOW = NOW_MS / 1000;

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

function signRs256(
  payload: Record<string, unknown>,
  key: KeyObject = privateKey,
  header: Record<string, unknown> = { alg: 'RS256', typ: 'JWT' },
): string {
  const input = `${b64url(header)}.${b64url(payload)}`;
  const signature = sign('RSA-SHA256', Buffer.from(input, 'utf8'), key).toString('base64url');
  return `${input}.${signature}`;
}

const claims = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  sub: 'user_2abc',
  sid: 'sess_123',
  email: 'alice@example.com',
  azp: 'https://app.example.com',
  iat: NOW - 10,
  nbf: NOW - 10,
  exp: NOW + 60,
  ...overrides,
});

const verifier = (authorizedParties: readonly string[] = [], pem: string = PUBLIC_PEM) =>
  createClerkSessionVerifier({ publicKeyPem: pem, authorizedParties, now: () => NOW_MS });

function rejection(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the token to be rejected');
}

describe('createClerkSessionVerifier', () => {
  test('when the token is a valid RS256 session token, then the session carries sub, email, sid and exp', () => {
    // Arrange
    const token = signRs256(claims());

    // Act
    const session = verifier()(token);

    // Assert
    expect(session).toEqual({
      userId: 'user_2abc',
      sessionId: 'sess_123',
      email: 'alice@example.com',
      expiresAt: NOW + 60,
    });
  });

  test('when the token has no sid and no email, then they are null', () => {
    // Arrange
    const token = signRs256(claims({ sid: undefined, email: undefined }));

    // Act
    const session = verifier()(token);

    // Assert
    expect(session.sessionId).toBeNull();
    expect(session.email).toBeNull();
    expect(session.userId).toBe('user_2abc');
  });

  test('when the token expired more than 5 s ago, then it is rejected as expired', () => {
    // Arrange
    const token = signRs256(claims({ exp: NOW - 6 }));

    // Act
    const err = rejection(() => verifier()(token));

    // Assert
    expect(err).toBeInstanceOf(InvalidSessionTokenError);
    expect(err.message).toContain('expired');
  });

  test('when the token expired within the 5 s clock skew, then it is still accepted', () => {
    // Arrange
    const token = signRs256(claims({ exp: NOW - 5 }));

    // Act
    const session = verifier()(token);

    // Assert
    expect(session.userId).toBe('user_2abc');
  });

  test('when the token has no exp claim, then it is rejected', () => {
    // Arrange
    const token = signRs256(claims({ exp: undefined }));

    // Act
    const err = rejection(() => verifier()(token));

    // Assert
    expect(err).toBeInstanceOf(InvalidSessionTokenError);
  });

  test('when nbf is further in the future than the skew, then the token is rejected as not yet valid', () => {
    // Arrange
    const token = signRs256(claims({ nbf: NOW + 30 }));

    // Act
    const err = rejection(() => verifier()(token));

    // Assert
    expect(err).toBeInstanceOf(InvalidSessionTokenError);
    expect(err.message).toContain('not yet valid');
  });

  test('when nbf is within the 5 s skew, then the token is accepted', () => {
    // Arrange
    const token = signRs256(claims({ nbf: NOW + 5 }));

    // Act
    const session = verifier()(token);

    // Assert
    expect(session.userId).toBe('user_2abc');
  });

  test('when the token was signed with another key, then it is rejected for a bad signature', () => {
    // Arrange
    const token = signRs256(claims(), other.privateKey);

    // Act
    const err = rejection(() => verifier()(token));

    // Assert
    expect(err).toBeInstanceOf(InvalidSessionTokenError);
    expect(err.message).toContain('bad signature');
  });

  test('when the token uses alg none with an empty signature, then it is rejected', () => {
    // Arrange
    const token = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims())}.`;

    // Act
    const err = rejection(() => verifier()(token));

    // Assert
    expect(err).toBeInstanceOf(InvalidSessionTokenError);
    expect(err.message).toContain('algorithm none is not accepted');
  });

  test('when the token is HS256 signed with the public PEM as the secret, then it is rejected', () => {
    // Arrange
    const input = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(claims())}`;
    const token = `${input}.${createHmac('sha256', PUBLIC_PEM).update(input).digest('base64url')}`;

    // Act
    const err = rejection(() => verifier()(token));

    // Assert
    expect(err).toBeInstanceOf(InvalidSessionTokenError);
    expect(err.message).toContain('HS256');
  });

  test('when the payload was altered after signing, then the token is rejected', () => {
    // Arrange
    const [header, , signature] = signRs256(claims()).split('.');
    const token = `${header}.${b64url(claims({ sub: 'user_admin' }))}.${signature}`;

    // Act
    const err = rejection(() => verifier()(token));

    // Assert
    expect(err).toBeInstanceOf(InvalidSessionTokenError);
    expect(err.message).toContain('bad signature');
  });

  test.each([
    ['missing', undefined],
    ['empty', ''],
    ['a number', 42],
  ])('when the sub claim is %s, then the token is rejected', (_what, sub) => {
    // Arrange
    const token = signRs256(claims({ sub }));

    // Act
    const err = rejection(() => verifier()(token));

    // Assert
    expect(err).toBeInstanceOf(InvalidSessionTokenError);
    expect(err.message).toContain('no subject');
  });

  test('when azp is not among the authorized parties, then the token is rejected', () => {
    // Arrange
    const token = signRs256(claims({ azp: 'https://evil.example.net' }));

    // Act
    const err = rejection(() => verifier(['https://app.example.com'])(token));

    // Assert
    expect(err).toBeInstanceOf(InvalidSessionTokenError);
    expect(err.message).toContain('unauthorized party');
  });

  test('when azp is among the authorized parties, then the token is accepted', () => {
    // Arrange
    const token = signRs256(claims({ azp: 'https://app.example.com' }));

    // Act
    const session = verifier(['https://other.example.com', 'https://app.example.com'])(token);

    // Assert
    expect(session.userId).toBe('user_2abc');
  });

  test('when the PEM carries literal "\\n" escapes as env vars do, then tokens still verify', () => {
    // Arrange
    const escaped = PUBLIC_PEM.trim().replace(/\n/g, '\\n');
    const token = signRs256(claims());

    // Act
    const session = verifier([], escaped)(token);

    // Assert
    expect(escaped).not.toContain('\n');
    expect(session.userId).toBe('user_2abc');
  });

  test.each([
    ['two parts', 'abc.def'],
    ['four parts', 'a.b.c.d'],
  ])('when the token has %s, then it is rejected as not a JWT', (_what, token) => {
    // Arrange / Act
    const err = rejection(() => verifier()(token));

    // Assert
    expect(err).toBeInstanceOf(InvalidSessionTokenError);
    expect(err.message).toContain('not a JWT');
  });

  test('when the header is not JSON, then it is rejected as malformed', () => {
    // Arrange
    const token = `${Buffer.from('not json').toString('base64url')}.${b64url(claims())}.sig`;

    // Act
    const err = rejection(() => verifier()(token));

    // Assert
    expect(err).toBeInstanceOf(InvalidSessionTokenError);
    expect(err.message).toContain('malformed header');
  });
});

describe('the issuer (CLERK_ISSUER) and the authorized parties (CLERK_AUTHORIZED_PARTIES)', () => {
  const ISSUER = 'https://clerk.app.example.com';
  const pinned = (options: { issuer?: string; authorizedParties?: readonly string[] } = {}) =>
    createClerkSessionVerifier({
      publicKeyPem: PUBLIC_PEM,
      authorizedParties: options.authorizedParties ?? [],
      issuer: options.issuer,
      now: () => NOW_MS,
    });

  test.each([
    ['another Clerk instance', { iss: 'https://clerk.other-tenant.example.com' }],
    ['no iss claim', { iss: undefined }],
    ['a non-string iss', { iss: 42 }],
  ])('when an issuer is configured and the token has %s, then it is rejected', (_what, overrides) => {
    // Arrange
    const token = signRs256(claims(overrides));

    // Act
    const err = rejection(() => pinned({ issuer: ISSUER })(token));

    // Assert
    expect(err).toBeInstanceOf(InvalidSessionTokenError);
    expect(err.message).toContain('unexpected issuer');
  });

  test('when the token comes from the configured issuer (set with a trailing slash), then it is accepted', () => {
    // Arrange
    const token = signRs256(claims({ iss: ISSUER }));

    // Act
    const session = pinned({ issuer: `${ISSUER}/` })(token);

    // Assert
    expect(session.userId).toBe('user_2abc');
  });

  test('when no issuer is configured, then iss is not checked (development and tests)', () => {
    // Arrange
    const token = signRs256(claims({ iss: 'https://anything.example.org' }));

    // Act / Assert
    expect(pinned()(token).userId).toBe('user_2abc');
  });

  test('when authorized parties are configured and the token carries no azp, then it is rejected', () => {
    // Arrange: a token of the same instance minted without a party (not a browser session).
    const token = signRs256(claims({ azp: undefined }));

    // Act
    const err = rejection(() => pinned({ authorizedParties: ['https://app.example.com'] })(token));

    // Assert
    expect(err).toBeInstanceOf(InvalidSessionTokenError);
    expect(err.message).toContain('no authorized party');
  });

  const production = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://user:pw@db.internal:5432/chainscreen',
    CLERK_WEBHOOK_SECRET: 'whsec_dGVzdC1vbmx5LWNsZXJrLXdlYmhvb2stc2VjcmV0ISE=',
    PAYPAL_WEBHOOK_ID: '1JE4291016473214C',
    PAYFAST_MERCHANT_ID: '10000100',
    PAYFAST_MERCHANT_PASSPHRASE: 'a passphrase',
    // Production refuses to start without a way to sign evidence (docs/configuration.md#evidence-signing-keys).
    EVIDENCE_KEYS_IN_DATABASE: 'true',
    CLERK_JWT_KEY: PUBLIC_PEM,
    CLERK_ISSUER: ISSUER,
    CLERK_AUTHORIZED_PARTIES: 'https://app.example.com',
  };

  test.each(['CLERK_ISSUER', 'CLERK_AUTHORIZED_PARTIES'])(
    'when production accepts session tokens (CLERK_JWT_KEY) without %s, then it refuses to start',
    (name) => {
      // Arrange / Act
      const err = rejection(() => loadConfig({ ...production, [name]: '' }));

      // Assert
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.message).toContain(`${name}: required when NODE_ENV=production and CLERK_JWT_KEY is set`);
    },
  );

  test('when production pins both, or takes no session tokens at all, then it starts', () => {
    // Arrange / Act
    const pinnedConfig = loadConfig(production);
    const withoutSessions = loadConfig({
      ...production,
      CLERK_JWT_KEY: '',
      CLERK_ISSUER: '',
      CLERK_AUTHORIZED_PARTIES: '',
    });

    // Assert
    expect([pinnedConfig.CLERK_ISSUER, pinnedConfig.CLERK_AUTHORIZED_PARTIES]).toEqual([
      ISSUER,
      ['https://app.example.com'],
    ]);
    expect(withoutSessions.CLERK_JWT_KEY).toBeUndefined();
  });

  test('when CLERK_ISSUER is not a URL, then the configuration is refused naming it', () => {
    // Arrange / Act
    const err = rejection(() => loadConfig({ CLERK_ISSUER: 'clerk instance' }));

    // Assert
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toContain('CLERK_ISSUER');
  });
});

describe('looksLikeJwt', () => {
  test('when given a signed token, then it looks like a JWT', () => {
    // Arrange
    const token = signRs256(claims());

    // Act / Assert
    expect(looksLikeJwt(token)).toBe(true);
  });

  test.each([
    ['an API key', 'csk_live_0123456789abcdef0123456789'],
    ['two segments', 'abc.def'],
    ['an empty segment', 'abc..def'],
    ['base64 padding', 'abc.def=.ghi'],
    ['whitespace', 'abc.def.ghi '],
    ['empty', ''],
  ])('when given %s, then it does not look like a JWT', (_what, value) => {
    // Arrange / Act / Assert
    expect(looksLikeJwt(value)).toBe(false);
  });
});
