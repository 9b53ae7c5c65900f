import { canonicalize } from 'json-canonicalize';
import { base64url, compactVerify, createRemoteJWKSet } from 'jose';
import { rotateSigningKey } from '../../src/platform/signing/postgres-signing-keys';
import { startReplayServer, type ReplayServer } from '../helpers/replay-server';
import { pollUntilDone, startTestStack, type TestStack } from '../helpers/test-stack';

const SANCTIONED_EVM = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c'; // OFAC SDN; no ethereum node: reference data only
const UNKNOWN_BTC_TX = 'cd'.repeat(32);

/**
 * Signed answers end to end: the answer a customer saved, checked the way docs/api.md tells them to (jose and
 * json-canonicalize only, none of our code) against the key set the service publishes, before and after a rotation.
 * The keys are the Postgres-kept development default (EVIDENCE_SIGNING_KEYS is not set).
 */
describe('signed screening answers', () => {
  let replay: ReplayServer;
  let stack: TestStack;
  /** A second api on the same database, without a worker: its jobs stay queued. */
  let idle: TestStack;

  beforeAll(async () => {
    // esplora's 404 for an unknown transaction: a KYT job for it fails with TRANSACTION_NOT_FOUND.
    replay = await startReplayServer([
      {
        request: { method: 'GET', path: `/bitcoin/tx/${UNKNOWN_BTC_TX}` },
        response: { status: 404, body: 'Transaction not found' },
      },
    ]);
    stack = await startTestStack({ env: { BITCOIN_ESPLORA_URL: `${replay.url}/bitcoin` } });
    idle = await startTestStack({ worker: false });
  });
  afterAll(async () => {
    await idle?.stop();
    await stack?.stop();
    await replay?.close();
  });

  /**
   * The docs' verification: put BASE64URL(canonical JSON of the whole data but its signature) between the JWS's
   * dots, accept EdDSA only, understand the critical parameters and check what they bind.
   */
  async function verifyAsACustomer(answer: any, jwksUrl = `${stack.api.url}/.well-known/jwks.json`) {
    const { signature, ...data } = answer.data;
    const [header, , sig] = signature.jws.split('.');
    const payload = base64url.encode(canonicalize(data) as string);
    const { protectedHeader: h } = await compactVerify(
      `${header}.${payload}.${sig}`,
      createRemoteJWKSet(new URL(jwksUrl)),
      { algorithms: ['EdDSA'], crit: { request_id: true, canon: true, signed: true } },
    );
    const bound = ['request_id', 'canon', 'signed'];
    if (
      h.typ !== 'chainscreen-evidence+jws' ||
      h.request_id !== data.request_id ||
      h.canon !== 'RFC8785' ||
      h.signed !== 'data' ||
      h.crit?.length !== bound.length ||
      !bound.every((name) => h.crit?.includes(name))
    )
      throw new Error('not chainscreen evidence for this answer');
    return h;
  }

  async function screened(body: Record<string, unknown>, target = stack) {
    const user = await target.createUser({ credits: 5 });
    const submit = await target.http('POST', '/api/v1/kyt/job', { key: user.key, body });
    expect(submit.status).toBe(202);
    const requestId: string = submit.body.data.request_id;
    if (target === stack) await pollUntilDone(stack, user.key, requestId);
    const polled = await target.http('GET', `/api/v1/kyt/job/${requestId}`, { key: user.key });
    const full = await target.http('GET', `/api/v1/kyt/job/${requestId}/fullresponse`, { key: user.key });
    return { polled: polled.body, full: full.body, key: user.key };
  }

  test('when the key set is fetched, then it is public, cacheable and holds public Ed25519 keys only', async () => {
    // Arrange / Act
    const res = await fetch(`${stack.api.url}/.well-known/jwks.json`);
    const jwks = await res.json();

    // Assert
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const key of jwks.keys)
      expect(key).toEqual({
        kty: 'OKP',
        crv: 'Ed25519',
        x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        kid: expect.any(String),
        alg: 'EdDSA',
        use: 'sig',
      });
    // Two api processes on one database publish the same keys.
    expect(await (await fetch(`${idle.api.url}/.well-known/jwks.json`)).json()).toEqual(jwks);
  });

  test(
    'when a job completes, then its poll and its full response carry a signature over their `data` that verifies ' +
      'against the published keys',
    async () => {
      // Arrange / Act
      const { polled, full, key } = await screened({ chain: 'ethereum', address: SANCTIONED_EVM });

      // Assert
      const jwks = await (await fetch(`${stack.api.url}/.well-known/jwks.json`)).json();
      const currentKid = jwks.keys[0].kid;
      for (const answer of [polled, full]) {
        expect(answer.data.status).toBe('completed');
        expect(answer.data.signature).toEqual({
          jws: expect.stringMatching(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/),
          kid: currentKid,
          alg: 'EdDSA',
          signed: 'data',
          canonicalization: 'RFC8785',
        });
        expect(await verifyAsACustomer(answer)).toEqual({
          alg: 'EdDSA',
          kid: currentKid,
          typ: 'chainscreen-evidence+jws',
          crit: ['request_id', 'canon', 'signed'],
          request_id: answer.data.request_id,
          canon: 'RFC8785',
          signed: 'data',
        });
      }
      // The full response is a different (larger) object, so a different signature.
      expect(full.data.signature.jws).not.toBe(polled.data.signature.jws);
      // The same answer polled again: Ed25519 is deterministic, the signature is the same.
      const again = await stack.http('GET', `/api/v1/kyt/job/${polled.data.request_id}`, { key });
      expect(again.body.data.signature).toEqual(polled.data.signature);

      // A changed answer does not verify.
      const edited = structuredClone(polled);
      edited.data.response.risk_level = 'LOW';
      await expect(verifyAsACustomer(edited)).rejects.toThrow(/signature verification failed/);
    },
  );

  test('when a job is still queued or has failed, then its answer carries no signature', async () => {
    // Arrange / Act
    const queued = await screened({ chain: 'ethereum', address: SANCTIONED_EVM }, idle);
    const failed = await screened({ chain: 'bitcoin', txid: UNKNOWN_BTC_TX });

    // Assert
    for (const answer of [queued.polled, queued.full]) {
      expect(answer.data.status).toBe('queued');
      expect(answer.data).not.toHaveProperty('signature');
    }
    for (const answer of [failed.polled, failed.full]) {
      expect(answer.data).toMatchObject({ status: 'failed', error: { code: 'TRANSACTION_NOT_FOUND' } });
      expect(answer.data).not.toHaveProperty('signature');
    }
  });

  test(
    'when the signing key is rotated, then an answer saved before still verifies with the published old key, ' +
      'and new answers carry the new kid',
    async () => {
      // Arrange
      const before = await screened({ chain: 'ethereum', address: SANCTIONED_EVM });
      const oldKid: string = before.polled.data.signature.kid;

      // Act
      const rotated = await rotateSigningKey(stack.pool);
      await stack.api.evidenceKeys.refresh();
      const after = await screened({ chain: 'ethereum', address: SANCTIONED_EVM });

      // Assert
      expect(rotated.retired).toEqual([oldKid]);
      expect(rotated.kid).not.toBe(oldKid);
      const jwks = await (await fetch(`${stack.api.url}/.well-known/jwks.json`)).json();
      expect(jwks.keys.map((k: { kid: string }) => k.kid).slice(0, 2)).toEqual([rotated.kid, oldKid]);
      expect((await verifyAsACustomer(before.polled)).kid).toBe(oldKid);
      expect((await verifyAsACustomer(before.full)).kid).toBe(oldKid);
      expect(after.polled.data.signature.kid).toBe(rotated.kid);
      expect((await verifyAsACustomer(after.polled)).kid).toBe(rotated.kid);
      expect((await verifyAsACustomer(after.full)).kid).toBe(rotated.kid);
      // The retired key can never sign again: only its public half is kept.
      const { rows } = await stack.pool.query('SELECT private_jwk, retired_at FROM signing_keys WHERE kid = $1', [
        oldKid,
      ]);
      expect(rows).toEqual([{ private_jwk: null, retired_at: expect.any(Date) }]);
    },
  );
});
