import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Paths of PEM files: a certificate and its PKCS#8 private key. */
export interface CertFiles {
  crt: string;
  key: string;
}

export interface TestPki {
  dir: string;
  ca: CertFiles;
  /** A server certificate for `serverName` (a DNS name, not 127.0.0.1: clients must be told the name). */
  server: CertFiles;
  /** A client certificate issued by `ca`. */
  client: CertFiles;
  /** A second CA and a client certificate it issued: well-formed, but not one `ca` vouches for. */
  rogueCa: CertFiles;
  rogueClient: CertFiles;
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

function selfSignedCa(dir: string, name: string): CertFiles {
  openssl(dir, [
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
  ]);
  return { crt: path.join(dir, `${name}.crt`), key: path.join(dir, `${name}.key`) };
}

function issued(dir: string, ca: CertFiles, name: string, extensions: string): CertFiles {
  writeFileSync(path.join(dir, `${name}.ext`), extensions);
  openssl(dir, ['req', ...EC_KEY, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`]);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    ca.crt,
    '-CAkey',
    ca.key,
    '-CAcreateserial',
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-extfile',
    `${name}.ext`,
  ]);
  return { crt: path.join(dir, `${name}.crt`), key: path.join(dir, `${name}.key`) };
}

/** A throwaway PKI made with the openssl CLI (Debian and every CI image have it), valid two days, in a temp dir. */
export function createTestPki(serverName: string): TestPki {
  const dir = mkdtempSync(path.join(tmpdir(), 'chainscreen-pki-'));
  const ca = selfSignedCa(dir, 'test-ca');
  const rogueCa = selfSignedCa(dir, 'rogue-ca');
  const leaf = 'basicConstraints=CA:FALSE\n';
  return {
    dir,
    ca,
    rogueCa,
    server: issued(dir, ca, 'server', `${leaf}extendedKeyUsage=serverAuth\nsubjectAltName=DNS:${serverName}\n`),
    client: issued(dir, ca, 'client', `${leaf}extendedKeyUsage=clientAuth\n`),
    rogueClient: issued(dir, rogueCa, 'rogue-client', `${leaf}extendedKeyUsage=clientAuth\n`),
  };
}
