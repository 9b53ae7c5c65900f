import { X509Certificate } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request, type Agent } from 'node:https';
import { join, resolve } from 'node:path';
import { rootCertificates } from 'node:tls';
import { WebhookSignatureError } from './errors';
import type { PayPalMode } from './verifier';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Every certificate in a PEM text, in order (PayPal puts the leaf first). Throws if there is none or one is corrupt.
 */
export function parseCertificateBundle(pem: string): X509Certificate[] {
  const blocks = pem.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) throw new Error('no PEM certificate found');
  return blocks.map((block) => new X509Certificate(block));
}

/**
 * The certificate fetch failed. `missing` means PayPal's certificate host itself answered that there is no such
 * certificate (a 4xx other than 408/429): a verdict on the URL a forger made up, not an outage.
 */
export class CertificateFetchError extends Error {
  readonly missing: boolean;

  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'CertificateFetchError';
    this.missing = status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429;
  }
}

export interface FetchCertificateOptions {
  timeoutMs?: number;
  maxBytes?: number;
  /** Only for tests and egress setups (extra CA, proxy); production uses the default agent and Node's roots. */
  agent?: Agent;
}

/**
 * Production certificate fetcher. HTTPS only (TLS to the allowlisted PayPal host is what authenticates the PEM), no
 * redirects followed (a 3xx is an error), whole exchange bounded by `timeoutMs`, body capped at `maxBytes`.
 */
export function fetchPayPalCertificate(url: URL, options: FetchCertificateOptions = {}): Promise<string> {
  const { timeoutMs = 5_000, maxBytes = 64 * 1024, agent } = options;
  if (url.protocol !== 'https:')
    return Promise.reject(new CertificateFetchError(`refusing to fetch a certificate over ${url.protocol}`));
  return new Promise<string>((resolvePem, rejectPem) => {
    const finish = (err: Error | null, pem?: string) => {
      clearTimeout(timer);
      if (err) rejectPem(err);
      else resolvePem(pem ?? '');
    };
    const req = request(url, { method: 'GET', agent, headers: { accept: 'application/x-pem-file, */*' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        req.destroy(
          new CertificateFetchError(`certificate fetch answered HTTP ${res.statusCode}`, res.statusCode ?? null),
        );
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) req.destroy(new CertificateFetchError(`certificate larger than ${maxBytes} bytes`));
        else chunks.push(chunk);
      });
      res.on('end', () => {
        if (size <= maxBytes) finish(null, Buffer.concat(chunks).toString('utf8'));
      });
      res.on('error', finish);
    });
    const timer = setTimeout(
      () => req.destroy(new CertificateFetchError(`certificate fetch timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
    req.on('error', finish);
    req.end();
  });
}

let nodeRoots: X509Certificate[] | undefined;

/**
 * Node's bundled Mozilla roots: the real PayPal chain ends at "DigiCert High Assurance EV Root CA", which
 * is among them.
 */
export function defaultTrustAnchors(): X509Certificate[] {
  nodeRoots ??= rootCertificates.map((pem) => new X509Certificate(pem));
  return nodeRoots;
}

/**
 * Intermediates shipped in data/paypal (provenance in its SOURCES.md), needed because the cert URL serves
 * only the leaf.
 */
export function loadPinnedIntermediates(dir: string = resolve(__dirname, '../../../data/paypal')): X509Certificate[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.pem'))
    .sort()
    .flatMap((name) => parseCertificateBundle(readFileSync(join(dir, name), 'utf8')));
}

const SIGNING_CN: Record<PayPalMode, string> = {
  sandbox: 'messageverificationcerts.sandbox.paypal.com',
  live: 'messageverificationcerts.paypal.com',
};

/**
 * Longest path we try: leaf, up to three intermediates, anchor. PayPal's real chain is leaf, one intermediate, root.
 */
const MAX_INTERMEDIATES = 3;

export interface TrustPolicy {
  mode: PayPalMode;
  trustAnchors: readonly X509Certificate[];
  intermediates: readonly X509Certificate[];
  now: Date;
}

const CERTIFICATE = { refusal: 'certificate' } as const;

const validAt = (cert: X509Certificate, now: Date): boolean =>
  new Date(cert.validFrom) <= now && now <= new Date(cert.validTo);

const issuedBy = (cert: X509Certificate, issuer: X509Certificate): boolean =>
  cert.checkIssued(issuer) && cert.verify(issuer.publicKey);

function commonNames(cert: X509Certificate): string[] {
  return cert.subject
    .split('\n')
    .filter((rdn) => rdn.startsWith('CN='))
    .map((rdn) => rdn.slice(3));
}

/**
 * Accepts `bundle[0]` as PayPal's webhook signing certificate for the mode, or throws WebhookSignatureError: it must be
 * valid now, carry exactly the expected CN, and chain (name + signature at each step, CA intermediates valid now)
 * through the other bundle certs and pinned intermediates to a trust anchor. A self-signed certificate with the right
 * CN fails here, which is what stops an attacker who controls nothing but the request.
 */
export function assertTrustedSigningCertificate(
  bundle: readonly X509Certificate[],
  policy: TrustPolicy,
): X509Certificate {
  const [leaf, ...served] = bundle;
  if (!leaf) throw new WebhookSignatureError('no signing certificate', CERTIFICATE);
  if (!validAt(leaf, policy.now)) {
    throw new WebhookSignatureError(
      `signing certificate is not valid now (${leaf.validFrom} .. ${leaf.validTo})`,
      CERTIFICATE,
    );
  }
  const names = commonNames(leaf);
  if (names.length !== 1 || names[0] !== SIGNING_CN[policy.mode]) {
    throw new WebhookSignatureError(
      `signing certificate CN ${names.join(',') || '(none)'} is not ${SIGNING_CN[policy.mode]}`,
      CERTIFICATE,
    );
  }
  const candidates = [...served, ...policy.intermediates].filter((ca) => ca.ca && validAt(ca, policy.now));
  const isAnchor = (cert: X509Certificate) => policy.trustAnchors.some((anchor) => anchor.raw.equals(cert.raw));
  const chains = (cert: X509Certificate, depth: number): boolean =>
    isAnchor(cert) ||
    policy.trustAnchors.some((anchor) => issuedBy(cert, anchor)) ||
    (depth < MAX_INTERMEDIATES && candidates.some((ca) => ca !== cert && issuedBy(cert, ca) && chains(ca, depth + 1)));
  if (!chains(leaf, 0))
    throw new WebhookSignatureError('signing certificate does not chain to a trusted CA', CERTIFICATE);
  return leaf;
}
