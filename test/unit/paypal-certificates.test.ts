import { X509Certificate } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer, Agent, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  defaultTrustAnchors,
  fetchPayPalCertificate,
  loadPinnedIntermediates,
  parseCertificateBundle,
} from '../../src/billing/paypal/certificates';
import { fixture, fixtureText, REAL_VECTORS, realVector, TEST_LEAF_PEM } from './paypal-fixtures';

describe('pinned intermediates (data/paypal)', () => {
  const pinned = loadPinnedIntermediates();

  it('ships the DigiCert SHA2 EV intermediate, genuine under a Node root', () => {
    const ev = pinned.find((c) => c.subject.includes('CN=DigiCert SHA2 Extended Validation Server CA'));
    expect(ev).toBeDefined();
    expect(ev!.ca).toBe(true);
    expect(ev!.fingerprint256).toBe(
      '40:3E:06:2A:26:53:05:91:13:28:5B:AF:80:A0:D4:AE:42:2C:84:8C:9F:78:FA:D0:1F:C9:4B:C5:B8:7F:EF:1A',
    );
    const root = defaultTrustAnchors().find((anchor) => ev!.checkIssued(anchor));
    expect(root?.subject).toContain('CN=DigiCert High Assurance EV Root CA');
    expect(ev!.verify(root!.publicKey)).toBe(true);
  });

  it.each(REAL_VECTORS)('issued the real PayPal leaf in %s', (dir) => {
    const leaf = new X509Certificate(realVector(dir).certPem);
    expect(pinned.some((ca) => leaf.checkIssued(ca) && leaf.verify(ca.publicKey))).toBe(true);
  });

  it('returns nothing for a folder that does not exist', () => {
    expect(loadPinnedIntermediates('/nonexistent/paypal-pins')).toEqual([]);
  });
});

describe('parseCertificateBundle', () => {
  it('reads every certificate, leaf first', () => {
    const bundle = parseCertificateBundle(`${TEST_LEAF_PEM}\n${fixtureText('test-pki/ca.pem')}`);
    expect(bundle.map((c) => c.subject.split('\n').pop())).toEqual([
      'CN=messageverificationcerts.sandbox.paypal.com',
      'CN=Test PayPal Webhook Root CA (test only)',
    ]);
  });

  it('throws on a body without a certificate or with a corrupt one', () => {
    expect(() => parseCertificateBundle('<html>503</html>')).toThrow(/no PEM/);
    expect(() => parseCertificateBundle('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----')).toThrow();
  });
});

/**
 * A local HTTPS server presenting the test leaf (SAN messageverificationcerts.sandbox.paypal.com). The client agent
 * trusts the test CA and resolves that name to 127.0.0.1, so TLS and hostname checks run unmodified.
 */
describe('fetchPayPalCertificate', () => {
  const HOST = 'messageverificationcerts.sandbox.paypal.com';
  const requests: string[] = [];
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  let server: Server;
  let agent: Agent;
  let port = 0;

  beforeAll(async () => {
    server = createServer({ key: fixture('test-pki/leaf.key'), cert: fixture('test-pki/leaf.pem') }, (req, res) => {
      requests.push(req.url ?? '');
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    agent = new Agent({
      ca: fixture('test-pki/ca.pem'),
      lookup: ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) =>
        options.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4)) as never,
    });
  });

  afterAll(async () => {
    agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => (requests.length = 0));
  const url = (path = '/v1/notifications/certs/CERT-1') => new URL(`https://${HOST}:${port}${path}`);

  it('returns the PEM text of a 200 answer', async () => {
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'application/x-pem-file' }).end(TEST_LEAF_PEM);
    await expect(fetchPayPalCertificate(url(), { agent })).resolves.toBe(TEST_LEAF_PEM);
    expect(requests).toEqual(['/v1/notifications/certs/CERT-1']);
  });

  it('does not follow a redirect', async () => {
    handler = (req, res) =>
      req.url === '/elsewhere'
        ? res.end(TEST_LEAF_PEM)
        : res.writeHead(302, { location: url('/elsewhere').href }).end();
    await expect(fetchPayPalCertificate(url(), { agent })).rejects.toThrow(/HTTP 302/);
    expect(requests).toEqual(['/v1/notifications/certs/CERT-1']);
  });

  it('fails on a non-200 answer', async () => {
    handler = (_req, res) => res.writeHead(404).end('not found');
    await expect(fetchPayPalCertificate(url(), { agent })).rejects.toThrow(/HTTP 404/);
  });

  it('stops reading past maxBytes', async () => {
    handler = (_req, res) => res.writeHead(200).end('x'.repeat(100_000));
    await expect(fetchPayPalCertificate(url(), { agent, maxBytes: 64 * 1024 })).rejects.toThrow(
      /larger than 65536 bytes/,
    );
  });

  it('gives up after timeoutMs, also when the body stalls', async () => {
    handler = () => undefined;
    await expect(fetchPayPalCertificate(url(), { agent, timeoutMs: 200 })).rejects.toThrow(/timed out after 200 ms/);
    handler = (_req, res) => res.writeHead(200).write('-----BEGIN CERTIFICATE-----\n');
    await expect(fetchPayPalCertificate(url(), { agent, timeoutMs: 200 })).rejects.toThrow(/timed out after 200 ms/);
  });

  it('fails TLS against a server the agent does not trust (the default agent uses Node roots)', async () => {
    handler = (_req, res) => res.end(TEST_LEAF_PEM);
    const untrusting = new Agent({ lookup: (agent.options as { lookup: never }).lookup });
    await expect(fetchPayPalCertificate(url(), { agent: untrusting })).rejects.toThrow(/certificate/i);
    untrusting.destroy();
  });

  it('refuses plain http without connecting', async () => {
    await expect(fetchPayPalCertificate(new URL(`http://127.0.0.1:${port}/v1/notifications/certs/X`))).rejects.toThrow(
      /over http:/,
    );
    expect(requests).toHaveLength(0);
  });
});
