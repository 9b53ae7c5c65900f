import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createClerkSessionVerifier, InvalidSessionTokenError, looksLikeJwt } from '../../src/identity/clerk-session';

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
