import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { recordSecret } from './run-log';

/** An RSA key pair and an RS256 signer, standing in for Clerk's instance keys in tests. */
export function createTestSigner() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const signToken = (claims: Record<string, unknown>, key: KeyObject = privateKey): string => {
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const input = `${enc({ alg: 'RS256', typ: 'JWT', kid: 'ins_test' })}.${enc(claims)}`;
    const token = `${input}.${sign('RSA-SHA256', Buffer.from(input), key).toString('base64url')}`;
    recordSecret(token);
    return token;
  };
  return { publicKeyPem, signToken };
}
