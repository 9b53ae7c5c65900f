import { Webhook } from 'svix';
import { ClerkSignatureError, createClerkVerifier } from '../../src/identity/clerk-webhook-verifier';
import { CLERK_SECRET, fixture, fixtureJson } from '../helpers/webhooks';

const manifest = fixtureJson('clerk', '_manifest.json');
const at = (name: string) => () => manifest.events[name].freeze_clock_at_ms as number;
const headersOf = (name: string) => fixtureJson<Record<string, string>>('clerk', `${name}.headers.json`);

describe('Clerk (Svix) webhook verification', () => {
  test.each(['user.created', 'user.updated', 'user.deleted', 'user.created.noncanonical'])(
    'when the %s fixture is verified at its delivery time, then the event and its svix-id come back',
    (name) => {
      // Arrange
      const verify = createClerkVerifier({ secret: CLERK_SECRET, now: at(name) });

      // Act
      const delivery = verify(fixture('clerk', `${name}.json`), headersOf(name));

      // Assert
      expect(delivery.id).toBe(manifest.events[name].svix_id);
      expect(delivery.event.type).toBe(name.replace('.noncanonical', ''));
    },
  );

  test('when the secret was rotated and the header carries an old and a current signature, then it verifies', () => {
    const verify = createClerkVerifier({ secret: CLERK_SECRET, now: at('user.created') });
    const delivery = verify(
      fixture('clerk', 'user.created.json'),
      fixtureJson('clerk', 'user.created.multi-signature.headers.json'),
    );
    expect(delivery.event.data.id).toBe('user_29w83sxmDNGwOuEthce5gg56FcC');
  });

  test(
    "when Svix's published test vector is signed and " + 'verified, then the expected signature results and verifies',
    () => {
      // Arrange
      const v = fixtureJson('clerk', 'svix-official-test-vector.json');
      const verify = createClerkVerifier({ secret: v.secret, now: () => v.timestamp * 1000 });

      // Act
      const signature = new Webhook(v.secret).sign(v.msg_id, new Date(v.timestamp * 1000), v.payload);

      // Assert
      expect(signature).toBe(v.expected_signature);
      // Signature and timestamp pass; only then is the body read, and `{"test": …}` is no Clerk event.
      expect(() =>
        verify(Buffer.from(v.payload), {
          'svix-id': v.msg_id,
          'svix-timestamp': String(v.timestamp),
          'svix-signature': v.expected_signature,
        }),
      ).toThrow(/not a Clerk event/);
      expect(() =>
        verify(Buffer.from(v.payload), {
          'svix-id': v.msg_id,
          'svix-timestamp': String(v.timestamp),
          'svix-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OF=',
        }),
      ).toThrow(/no matching signature/);
    },
  );

  test.each([
    ['older than 5 minutes (a replay)', 301_000],
    ['more than 5 minutes in the future', -301_000],
  ])('when the delivery is %s, then it is rejected', (_label, skewMs) => {
    const verify = createClerkVerifier({ secret: CLERK_SECRET, now: () => at('user.created')() + skewMs });
    expect(() => verify(fixture('clerk', 'user.created.json'), headersOf('user.created'))).toThrow(/tolerance/);
  });

  test('when the delivery is 299 s old, then it is still accepted', () => {
    const verify = createClerkVerifier({ secret: CLERK_SECRET, now: () => at('user.created')() + 299_000 });
    expect(verify(fixture('clerk', 'user.created.json'), headersOf('user.created')).id).toBe(
      manifest.events['user.created'].svix_id,
    );
  });

  test('when the pretty-printed body is re-serialized the way express.json would, then it no longer verifies', () => {
    const verify = createClerkVerifier({ secret: CLERK_SECRET, now: at('user.created.noncanonical') });
    const reserialized = Buffer.from(
      JSON.stringify(JSON.parse(fixture('clerk', 'user.created.noncanonical.json').toString('utf8'))),
    );
    expect(() => verify(reserialized, headersOf('user.created.noncanonical'))).toThrow(ClerkSignatureError);
  });

  test.each([
    [
      'one body byte changed',
      (b: Buffer) => Buffer.from(b.toString('utf8').replace('Example', 'Exbmple')),
      (h: Record<string, string>) => h,
    ],
    ['another svix-id', (b: Buffer) => b, (h: Record<string, string>) => ({ ...h, 'svix-id': 'msg_other' })],
    ['no signature header', (b: Buffer) => b, ({ 'svix-signature': _s, ...h }: Record<string, string>) => h],
    [
      'a v2 signature only',
      (b: Buffer) => b,
      (h: Record<string, string>) => ({ ...h, 'svix-signature': h['svix-signature']!.replace('v1,', 'v2,') }),
    ],
    [
      'a non-numeric timestamp',
      (b: Buffer) => b,
      (h: Record<string, string>) => ({ ...h, 'svix-timestamp': '16540x2592' }),
    ],
  ])('when the delivery has %s, then it is rejected', (_label, body, headers) => {
    const verify = createClerkVerifier({ secret: CLERK_SECRET, now: at('user.created') });
    expect(() => verify(body(fixture('clerk', 'user.created.json')), headers(headersOf('user.created')))).toThrow(
      ClerkSignatureError,
    );
  });

  test(
    'when the signature comes in the contract header X-Clerk-Webhook-Signature, ' +
      'then it is accepted as svix-signature',
    () => {
      const verify = createClerkVerifier({ secret: CLERK_SECRET, now: at('user.created') });
      const { 'svix-signature': signature, ...rest } = headersOf('user.created');
      expect(
        verify(fixture('clerk', 'user.created.json'), { ...rest, 'x-clerk-webhook-signature': signature }).event.type,
      ).toBe('user.created');
    },
  );

  test('when the secret is a different one, then every fixture is rejected', () => {
    const verify = createClerkVerifier({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', now: at('user.created') });
    expect(() => verify(fixture('clerk', 'user.created.json'), headersOf('user.created'))).toThrow(ClerkSignatureError);
  });
});
