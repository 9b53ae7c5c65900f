import { ConfigError, loadConfig } from '../../src/platform/config';
import { createConfiguredKeyRing } from '../../src/platform/signing/configured-key-ring';
import { canonicalJson } from '../../src/platform/signing/detached-jws';
import { createEvidenceSigner } from '../../src/platform/signing/evidence-signer';
import { generateSigningJwk } from '../../src/platform/signing/generate-signing-key';
import { publicJwkOf, type PrivateSigningJwk } from '../../src/platform/signing/signing-jwk';
import { verifyEvidence } from '../../src/platform/signing/verify-evidence';

const ANSWER = {
  api_type: 'KYA',
  chain: 'bitcoin',
  risk_level: 'HIGH',
  risk_score: 100,
  risk_reason: 'Address is on the OFAC SDN list',
  rule_scores: { tag_score: 72, is_sanctioned: 100, receive_count: 0.5 },
  target_summary: { address: '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h', tags: [{ name: 'Ünïcödé €', type: 'sanctions' }] },
};

describe('evidence signatures', () => {
  let key: PrivateSigningJwk;
  let other: PrivateSigningJwk;

  beforeAll(async () => {
    [key, other] = await Promise.all([generateSigningJwk(), generateSigningJwk()]);
  });

  const jwksOf = (...keys: PrivateSigningJwk[]) => ({ keys: keys.map(publicJwkOf) });
  const sign = (value: unknown, signingKey = key) =>
    createEvidenceSigner(createConfiguredKeyRing([signingKey])).sign(value, 'response');

  test('when an answer is signed and verified with the published key, then it is valid and names its kid', async () => {
    // Arrange / Act
    const signature = await sign(ANSWER);

    // Assert
    expect(signature).toEqual({
      jws: expect.stringMatching(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/),
      kid: key.kid,
      alg: 'EdDSA',
      signed: 'response',
      canonicalization: 'RFC8785',
    });
    const header = JSON.parse(Buffer.from(signature.jws.split('.')[0] as string, 'base64url').toString());
    expect(header).toEqual({ alg: 'EdDSA', kid: key.kid, typ: 'chainscreen-evidence+jws' });
    await expect(verifyEvidence(signature, ANSWER, jwksOf(other, key))).resolves.toEqual({ kid: key.kid });
  });

  test('when the same answer is signed twice, then the JWS is the same (Ed25519 is deterministic)', async () => {
    // Arrange / Act
    const [first, second] = await Promise.all([sign(ANSWER), sign(structuredClone(ANSWER))]);

    // Assert
    expect(first.jws).toBe(second.jws);
  });

  test('when the answer comes back with its keys in another order, then it still verifies', async () => {
    // Arrange: every object's keys reversed, as a client that re-serialises the answer might store it.
    const signature = await sign(ANSWER);
    const reordered = {
      target_summary: { tags: [{ type: 'sanctions', name: 'Ünïcödé €' }], address: ANSWER.target_summary.address },
      rule_scores: { receive_count: 0.5, is_sanctioned: 100, tag_score: 72 },
      risk_reason: ANSWER.risk_reason,
      risk_score: 100,
      risk_level: 'HIGH',
      chain: 'bitcoin',
      api_type: 'KYA',
    };

    // Act / Assert
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(ANSWER));
    expect(canonicalJson(reordered)).toBe(canonicalJson(ANSWER));
    await expect(verifyEvidence(signature, reordered, jwksOf(key))).resolves.toEqual({ kid: key.kid });
  });

  test.each([
    ['a changed score', { ...ANSWER, risk_score: 99 }],
    ['a changed level', { ...ANSWER, risk_level: 'LOW' }],
    ['a nested field changed', { ...ANSWER, rule_scores: { ...ANSWER.rule_scores, is_sanctioned: 0 } }],
    ['a field removed', { ...ANSWER, risk_reason: undefined }],
    ['a field added', { ...ANSWER, note: 'edited' }],
    ['the tags list emptied', { ...ANSWER, target_summary: { ...ANSWER.target_summary, tags: [] } }],
  ])('when the answer is verified with %s, then it is invalid', async (_what, changed) => {
    // Arrange
    const signature = await sign(ANSWER);

    // Act / Assert
    await expect(verifyEvidence(signature, changed, jwksOf(key))).rejects.toThrow(/signature verification failed/);
  });

  test('when the key set does not hold the kid that signed, then it is invalid', async () => {
    // Arrange
    const signature = await sign(ANSWER);

    // Act / Assert
    await expect(verifyEvidence(signature, ANSWER, jwksOf(other))).rejects.toThrow(/no applicable key/);
  });

  test("when another key's kid is put on the signature, then it is invalid", async () => {
    // Arrange: signed by `other` with the kid of `key` in its header and on the signature.
    const forged = await sign(ANSWER, { ...other, kid: key.kid });

    // Act / Assert
    await expect(verifyEvidence(forged, ANSWER, jwksOf(key))).rejects.toThrow(/signature verification failed/);
  });

  test('when the outer kid is not the signed one, or the JWS carries its payload, then it is invalid', async () => {
    // Arrange
    const signature = await sign(ANSWER);
    const [header, , sig] = signature.jws.split('.');
    const attached = `${header}.${Buffer.from(canonicalJson(ANSWER)).toString('base64url')}.${sig}`;

    // Act / Assert
    await expect(verifyEvidence({ ...signature, kid: other.kid }, ANSWER, jwksOf(key, other))).rejects.toThrow(
      /but the answer says/,
    );
    await expect(verifyEvidence({ ...signature, jws: attached }, ANSWER, jwksOf(key))).rejects.toThrow(/detached/);
  });

  test('when several keys are configured, then the first signs and all are published, public parts only', async () => {
    // Arrange
    const ring = createConfiguredKeyRing([key, other]);

    // Act
    const published = await ring.publicKeys();
    const signature = await createEvidenceSigner(ring).sign(ANSWER, 'response');

    // Assert
    expect(signature.kid).toBe(key.kid);
    expect(published).toEqual([
      { kty: 'OKP', crv: 'Ed25519', x: key.x, kid: key.kid, alg: 'EdDSA', use: 'sig' },
      { kty: 'OKP', crv: 'Ed25519', x: other.x, kid: other.kid, alg: 'EdDSA', use: 'sig' },
    ]);
  });
});

describe('EVIDENCE_SIGNING_KEYS', () => {
  test('when it holds a JWKS of private Ed25519 keys, then the config carries them in order', async () => {
    // Arrange
    const [first, second] = await Promise.all([generateSigningJwk(), generateSigningJwk()]);

    // Act
    const config = loadConfig({ EVIDENCE_SIGNING_KEYS: JSON.stringify({ keys: [first, second] }) });

    // Assert
    expect(config.EVIDENCE_SIGNING_KEYS?.keys.map((k) => k.kid)).toEqual([first.kid, second.kid]);
  });

  test.each([
    ['not JSON', () => '{"keys": [ {"kty": "OKP", "d": "secret-material"'],
    ['an empty key set', () => '{"keys": []}'],
    ['a key without its private part', (k: PrivateSigningJwk) => JSON.stringify({ keys: [publicJwkOf(k)] })],
    [
      'a key whose x is not its d',
      (k: PrivateSigningJwk, o: PrivateSigningJwk) => JSON.stringify({ keys: [{ ...k, x: o.x }] }),
    ],
    [
      'the same kid twice',
      (k: PrivateSigningJwk, o: PrivateSigningJwk) => JSON.stringify({ keys: [k, { ...o, kid: k.kid }] }),
    ],
  ])('when it is %s, then the config is refused without quoting the keys', async (_what, value) => {
    // Arrange
    const [k, o] = await Promise.all([generateSigningJwk(), generateSigningJwk()]);
    const text = value(k, o);

    // Act
    let error: unknown;
    try {
      loadConfig({ EVIDENCE_SIGNING_KEYS: text });
    } catch (err) {
      error = err;
    }

    // Assert
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/EVIDENCE_SIGNING_KEYS/);
    expect((error as Error).message).not.toContain(k.d);
    expect((error as Error).message).not.toContain('secret-material');
  });
});
