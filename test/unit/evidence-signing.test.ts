import { CompactSign, exportJWK, generateKeyPair } from 'jose';
import { EXAMPLE_JWKS, SCREENING_EXAMPLES } from '../../src/screening/openapi/examples';
import { ConfigError, loadConfig } from '../../src/app/config';
import { createConfiguredKeyRing } from '../../src/platform/signing/configured-key-ring';
import { canonicalJson } from '../../src/platform/signing/detached-jws';
import { duplicateMemberName } from '../../src/platform/signing/duplicate-members';
import { createEvidenceSigner } from '../../src/platform/signing/evidence-signer';
import { generateSigningJwk } from '../../src/platform/signing/generate-signing-key';
import { importSigningKey } from '../../src/platform/signing/key-ring';
import { publicJwkOf, type PrivateSigningJwk } from '../../src/platform/signing/signing-jwk';
import { verifyAnswer, verifyAnswerText } from '../../src/platform/signing/verify-evidence';

/** The `data` of a completed poll, signature aside (a shortened real one). */
const DATA = {
  request_id: '7d1f0f39-59a8-4d7e-9d6c-0a7c8bdf2e11',
  status: 'completed',
  reference_id: 'case-1',
  created_at: 1795424873055,
  completed_at: 1795424873241,
  response: {
    api_type: 'KYA',
    chain: 'bitcoin',
    risk_level: 'HIGH',
    risk_score: 100,
    risk_reason: 'Address is on the OFAC SDN list',
    rule_scores: { tag_score: 72, is_sanctioned: 100, receive_count: 0.5 },
    target_summary: {
      address: '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h',
      tags: [{ name: 'Ünïcödé €', type: 'sanctions' }],
    },
    sanctions_list: { list: 'ofac-sdn', version: 3, issue_date: '2025-11-19' },
  },
  credits_charged: 1,
};
type Data = typeof DATA;

const b64json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const headerOf = (jws: string) => JSON.parse(Buffer.from(jws.split('.')[0] as string, 'base64url').toString());

describe('evidence signatures', () => {
  let key: PrivateSigningJwk;
  let other: PrivateSigningJwk;

  beforeAll(async () => {
    [key, other] = await Promise.all([generateSigningJwk(), generateSigningJwk()]);
  });

  const jwksOf = (...keys: PrivateSigningJwk[]) => ({ keys: keys.map(publicJwkOf) });
  const signer = (signingKey = key) => createEvidenceSigner(createConfiguredKeyRing([signingKey]));
  /** The whole HTTP body of a signed poll (a copy of `data`: the tests edit it). */
  const answer = async (data: Data = DATA, signingKey = key) => ({
    success: true,
    data: { ...structuredClone(data), signature: await signer(signingKey).signAnswer(data) },
  });
  /** A JWS over `data` with a header of the test's choosing, signed by `key` (a forger holding a key). */
  const signWithHeader = async (data: unknown, header: Record<string, unknown>, crit: string[] = []) => {
    const { key: privateKey } = await importSigningKey(key);
    const jws = await new CompactSign(new TextEncoder().encode(canonicalJson(data)))
      .setProtectedHeader(header as { alg: string })
      .sign(privateKey, { crit: Object.fromEntries(crit.map((name) => [name, true])) });
    const [h, , s] = jws.split('.');
    return `${h}..${s}`;
  };

  test(
    'when an answer is signed, then its protected header binds typ, request id, canonicalization and what is ' +
      'signed as critical, and it verifies against the published key',
    async () => {
      // Arrange / Act
      const signed = await answer();

      // Assert
      expect(signed.data.signature).toEqual({
        jws: expect.stringMatching(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/),
        kid: key.kid,
        alg: 'EdDSA',
        signed: 'data',
        canonicalization: 'RFC8785',
      });
      expect(headerOf(signed.data.signature.jws)).toEqual({
        alg: 'EdDSA',
        kid: key.kid,
        typ: 'chainscreen-evidence+jws',
        crit: ['request_id', 'canon', 'signed'],
        request_id: DATA.request_id,
        canon: 'RFC8785',
        signed: 'data',
      });
      await expect(verifyAnswer(signed, jwksOf(other, key))).resolves.toEqual({
        kid: key.kid,
        requestId: DATA.request_id,
      });
      // The `data` alone verifies as well as the whole body.
      await expect(verifyAnswer(signed.data, jwksOf(key))).resolves.toEqual({
        kid: key.kid,
        requestId: DATA.request_id,
      });
    },
  );

  test('when the same answer is signed twice, then the JWS is the same (Ed25519 is deterministic)', async () => {
    // Arrange / Act
    const [first, second] = await Promise.all([answer(), answer(structuredClone(DATA))]);

    // Assert
    expect(first.data.signature.jws).toBe(second.data.signature.jws);
  });

  test('when the answer comes back pretty-printed with its keys in another order, then it still verifies', async () => {
    // Arrange: every object's keys reversed, as a client that re-serialises the answer might store it.
    const signed = await answer();
    const reverse = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reverse)
        : value && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([k, v]) => [k, reverse(v)]),
            )
          : value;
    const text = JSON.stringify(reverse(signed), null, 2);

    // Act / Assert
    expect(text).not.toBe(JSON.stringify(signed, null, 2));
    await expect(verifyAnswerText(text, jwksOf(key))).resolves.toMatchObject({ kid: key.kid });
  });

  test.each<[string, (data: any) => void]>([
    ['a changed level', (d) => (d.response.risk_level = 'LOW')],
    ['a changed score', (d) => (d.response.risk_score = 99)],
    ['a changed list version', (d) => (d.response.sanctions_list.version = 4)],
    ['changed credits', (d) => (d.credits_charged = 0)],
    ['a nested field changed', (d) => (d.response.rule_scores.is_sanctioned = 0)],
    ['a field removed', (d) => delete d.response.risk_reason],
    ['a field added', (d) => (d.note = 'edited')],
    ['the tags list emptied', (d) => (d.response.target_summary.tags = [])],
  ])('when the answer is verified with %s, then it is invalid', async (_what, edit) => {
    // Arrange
    const signed = await answer();
    edit(signed.data);

    // Act / Assert
    await expect(verifyAnswer(signed, jwksOf(key))).rejects.toThrow(/signature verification failed/);
  });

  test(
    'when the original data is moved under another member and `signed` names it (the reproduced attack), ' +
      'then it is invalid: the whole data is always what is verified',
    async () => {
      // Arrange
      const signed = await answer();
      const { signature, ...original } = signed.data;
      const forged = {
        success: true,
        data: {
          ...structuredClone(original),
          response: { ...original.response, risk_level: 'LOW' },
          attestation: original,
          signature: { ...signature, signed: 'attestation' },
        },
      };

      // Act / Assert
      await expect(verifyAnswer(forged, jwksOf(key))).rejects.toThrow(/signature verification failed/);
      // Nor does naming another member with the data untouched get past the copy check.
      await expect(
        verifyAnswer(
          { success: true, data: { ...original, signature: { ...signature, signed: 'response' } } },
          jwksOf(key),
        ),
      ).rejects.toThrow(/signature.signed is response, but the signed header says data/);
    },
  );

  test('when a member is put beside data in the body, then it is invalid (no signature covers it)', async () => {
    // Arrange
    const signed = await answer();

    // Act / Assert
    await expect(verifyAnswer({ ...signed, verdict: 'LOW' }, jwksOf(key))).rejects.toThrow(/verdict beside data/);
    await expect(verifyAnswer({ ...signed, success: false }, jwksOf(key))).rejects.toThrow(/beside data/);
  });

  test(
    'when an answer repeats a member name, ' + 'then it is invalid even though JSON.parse keeps the signed value',
    async () => {
      // Arrange: `"risk_level":"LOW"` before the signed HIGH: JSON.parse keeps HIGH, a reader may see LOW.
      const signed = await answer();
      const text = JSON.stringify(signed).replace('"risk_level":"HIGH"', '"risk_level":"LOW","risk_level":"HIGH"');
      const escaped = JSON.stringify(signed).replace(
        '"risk_level":"HIGH"',
        '"\\u0072isk_level":"LOW","risk_level":"HIGH"',
      );

      // Act / Assert
      expect(JSON.parse(text)).toEqual(signed);
      await expect(verifyAnswerText(text, jwksOf(key))).rejects.toThrow(/"risk_level" appears twice/);
      await expect(verifyAnswerText(escaped, jwksOf(key))).rejects.toThrow(/"risk_level" appears twice/);
      expect(duplicateMemberName('{"a":{"b":1},"c":[{"b":2},{"b":3}],"d":"\\"b\\":"}')).toBeUndefined();
      await expect(verifyAnswerText(JSON.stringify(signed), jwksOf(key))).resolves.toMatchObject({ kid: key.kid });
    },
  );

  test("when another answer's signature is pasted in, or the request id changed, then it is invalid", async () => {
    // Arrange
    const signed = await answer();
    const second = await answer({ ...DATA, request_id: '0b1c1e0e-3c7b-4a1b-9d55-1f3e1e5b2a10' });

    // Act / Assert
    await expect(
      verifyAnswer({ success: true, data: { ...signed.data, signature: second.data.signature } }, jwksOf(key)),
    ).rejects.toThrow(/signature verification failed/);
    await expect(
      verifyAnswer({ success: true, data: { ...signed.data, request_id: second.data.request_id } }, jwksOf(key)),
    ).rejects.toThrow(/signature verification failed/);
  });

  test(
    'when a signature is made by our key over the right data but binds another request id, ' + 'then it is invalid',
    async () => {
      // Arrange: only a holder of the private key could make it; the check is still the verifier's own.
      const header = { ...headerOf((await answer()).data.signature.jws), request_id: 'another-request' };
      const jws = await signWithHeader(DATA, header, ['request_id', 'canon', 'signed']);
      const forged = { success: true, data: { ...DATA, signature: { ...(await answer()).data.signature, jws } } };

      // Act / Assert
      await expect(verifyAnswer(forged, jwksOf(key))).rejects.toThrow(/signed for request another-request/);
    },
  );

  test.each<[string, Record<string, unknown>, string[], RegExp]>([
    [
      'no request id (a signature made before the header bound it)',
      { alg: 'EdDSA', typ: 'chainscreen-evidence+jws' },
      [],
      /binds no request id/,
    ],
    [
      'the bound parameters not marked critical',
      { alg: 'EdDSA', typ: 'chainscreen-evidence+jws', request_id: DATA.request_id, canon: 'RFC8785', signed: 'data' },
      [],
      /crit: /,
    ],
    [
      'another typ',
      {
        alg: 'EdDSA',
        typ: 'JWT',
        crit: ['request_id', 'canon', 'signed'],
        request_id: DATA.request_id,
        canon: 'RFC8785',
        signed: 'data',
      },
      ['request_id', 'canon', 'signed'],
      /typ: /,
    ],
    [
      'signed naming a member',
      {
        alg: 'EdDSA',
        typ: 'chainscreen-evidence+jws',
        crit: ['request_id', 'canon', 'signed'],
        request_id: DATA.request_id,
        canon: 'RFC8785',
        signed: 'response',
      },
      ['request_id', 'canon', 'signed'],
      /signed: /,
    ],
    [
      'an extension the verifier does not know, marked critical',
      {
        alg: 'EdDSA',
        typ: 'chainscreen-evidence+jws',
        crit: ['request_id', 'canon', 'signed', 'scope'],
        request_id: DATA.request_id,
        canon: 'RFC8785',
        signed: 'data',
        scope: 'response',
      },
      ['request_id', 'canon', 'signed', 'scope'],
      /"scope" is not recognized/,
    ],
    [
      'an extra member',
      {
        alg: 'EdDSA',
        typ: 'chainscreen-evidence+jws',
        crit: ['request_id', 'canon', 'signed'],
        request_id: DATA.request_id,
        canon: 'RFC8785',
        signed: 'data',
        jku: 'https://attacker.example/jwks.json',
      },
      ['request_id', 'canon', 'signed'],
      /Unrecognized key: "jku"/,
    ],
  ])('when the protected header has %s, then it is invalid', async (_what, header, crit, reason) => {
    // Arrange: a valid Ed25519 signature by the published key over the right data, under that header.
    const jws = await signWithHeader(DATA, { ...header, kid: key.kid }, crit);
    const signature = { jws, kid: key.kid, alg: 'EdDSA', signed: 'data', canonicalization: 'RFC8785' };

    // Act / Assert
    await expect(verifyAnswer({ success: true, data: { ...DATA, signature } }, jwksOf(key))).rejects.toThrow(reason);
  });

  test('when the key set does not hold the kid that signed, or holds it twice, then it is invalid', async () => {
    // Arrange
    const signed = await answer();

    // Act / Assert
    await expect(verifyAnswer(signed, jwksOf(other))).rejects.toThrow(`the key set holds no key ${key.kid}`);
    await expect(verifyAnswer(signed, { keys: [publicJwkOf(key), publicJwkOf(key)] })).rejects.toThrow(/2 keys named/);
  });

  test("when another key's kid is put on the signature, then it is invalid", async () => {
    // Arrange: signed by `other` with the kid of `key` in its header and on the signature.
    const forged = await answer(DATA, { ...other, kid: key.kid });

    // Act / Assert
    await expect(verifyAnswer(forged, jwksOf(key))).rejects.toThrow(/signature verification failed/);
  });

  test('when alg is none, or HS256 keyed with the public key, then it is invalid', async () => {
    // Arrange
    const signed = await answer();
    const none = `${b64json({ ...headerOf(signed.data.signature.jws), alg: 'none' })}..`;
    const hmacKey = Buffer.from(publicJwkOf(key).x, 'base64url');
    const hs256 = await new CompactSign(new TextEncoder().encode(canonicalJson(DATA)))
      .setProtectedHeader({ ...headerOf(signed.data.signature.jws), alg: 'HS256' })
      .sign(hmacKey, { crit: { request_id: true, canon: true, signed: true } });
    const hs256Detached = hs256.replace(/\.[^.]+\./, '..');
    const withJws = (jws: string) => ({
      success: true,
      data: { ...DATA, signature: { ...signed.data.signature, jws } },
    });
    // The public key's bytes as an oct key under the kid, for a verifier that would take the key set's word for it.
    const octSet = { keys: [{ kty: 'oct', k: publicJwkOf(key).x, kid: key.kid, alg: 'HS256' }] };

    // Act / Assert
    await expect(verifyAnswer(withJws(none), jwksOf(key))).rejects.toThrow(/malformed/);
    await expect(verifyAnswer(withJws(`${none}AAAA`), jwksOf(key))).rejects.toThrow(/not allowed/);
    await expect(verifyAnswer(withJws(hs256Detached), jwksOf(key))).rejects.toThrow(/not allowed/);
    await expect(verifyAnswer(withJws(hs256Detached), octSet)).rejects.toThrow(/not allowed/);
  });

  test('when the key set holds a key of another type under the kid, then it is invalid', async () => {
    // Arrange: a forger's own P-256 key published under our kid, and an answer it signed (ES256).
    const signed = await answer();
    const forger = await generateKeyPair('ES256', { extractable: true });
    const ecJwk = { ...(await exportJWK(forger.publicKey)), kid: key.kid };
    const es256 = await new CompactSign(new TextEncoder().encode(canonicalJson(DATA)))
      .setProtectedHeader({ ...headerOf(signed.data.signature.jws), alg: 'ES256' })
      .sign(forger.privateKey, { crit: { request_id: true, canon: true, signed: true } });
    const forged = {
      success: true,
      data: { ...DATA, signature: { ...signed.data.signature, jws: es256.replace(/\.[^.]+\./, '..') } },
    };

    // Act / Assert
    await expect(verifyAnswer(forged, { keys: [ecJwk] })).rejects.toThrow(/not allowed/);
    // Even the genuine EdDSA signature is refused against a key set that holds something else under its kid.
    await expect(verifyAnswer(signed, { keys: [ecJwk] })).rejects.toThrow(/not a public Ed25519/);
  });

  test(
    'when the unsigned copies disagree with the signed header, or the signature is missing, ' + 'then it is invalid',
    async () => {
      // Arrange
      const signed = await answer();
      const { signature, ...unsigned } = signed.data;
      const [header, , sig] = signature.jws.split('.');
      const attached = `${header}.${Buffer.from(canonicalJson(unsigned)).toString('base64url')}.${sig}`;
      const withSignature = (s: unknown) => ({ success: true, data: { ...unsigned, signature: s } });

      // Act / Assert
      await expect(verifyAnswer(withSignature({ ...signature, kid: other.kid }), jwksOf(key, other))).rejects.toThrow(
        /signature.kid is .*, but the signed header says/,
      );
      await expect(verifyAnswer(withSignature({ ...signature, jws: attached }), jwksOf(key))).rejects.toThrow(
        /malformed/,
      );
      await expect(verifyAnswer(withSignature({ ...signature, note: 'x' }), jwksOf(key))).rejects.toThrow(/malformed/);
      await expect(verifyAnswer({ success: true, data: unsigned }, jwksOf(key))).rejects.toThrow(
        /carries no signature/,
      );
    },
  );

  test('when several keys are configured, then the first signs and all are published, public parts only', async () => {
    // Arrange
    const ring = createConfiguredKeyRing([key, other]);

    // Act
    const published = await ring.publicKeys();
    const signature = await createEvidenceSigner(ring).signAnswer(DATA);

    // Assert
    expect(signature.kid).toBe(key.kid);
    expect(published).toEqual([
      { kty: 'OKP', crv: 'Ed25519', x: key.x, kid: key.kid, alg: 'EdDSA', use: 'sig' },
      { kty: 'OKP', crv: 'Ed25519', x: other.x, kid: other.kid, alg: 'EdDSA', use: 'sig' },
    ]);
  });

  test(
    'when the OpenAPI examples of a completed answer are verified with the example key set, ' + 'then they are valid',
    async () => {
      // Arrange / Act / Assert: the examples are real answers signed by a key made for them only
      // (src/screening/openapi/examples.ts). When an example's data changes (a price too), sign it again with a new
      // example key (createEvidenceSigner) and publish its half.
      for (const example of [SCREENING_EXAMPLES.polled, SCREENING_EXAMPLES.full])
        await expect(verifyAnswer(example, EXAMPLE_JWKS)).resolves.toMatchObject({
          requestId: example.data.request_id,
        });
    },
  );
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
