import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseSdnAdvanced } from '../../src/lists/ofac/sdn-advanced-parser';
import { SDN_MAX_REDIRECTS } from '../../src/lists/ofac/sdn-download';
import { openSdnSource, SdnSourceError } from '../../src/lists/ofac/sdn-source';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'ofac');
const TRIMMED_GZ = path.join(FIXTURES, 'sdn_advanced-2025-03-21.trimmed.xml.gz');
/** sha256 of the uncompressed extract (test/fixtures/ofac/SOURCES.md). */
const TRIMMED_XML_SHA256 = '15efed87aeeb62a01d7c9ddf4f5ae520ed7e9a70c94145676ccc0e010b679b47';

const readAll = async (location: string, signal?: AbortSignal, timeoutMs?: number) =>
  parseSdnAdvanced(await openSdnSource(location, signal, { downloadTimeoutMs: timeoutMs }));

describe('openSdnSource from files', () => {
  let dir: string;
  const xml = gunzipSync(readFileSync(TRIMMED_GZ));

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sdn-source-'));
    writeFileSync(path.join(dir, 'issue.xml'), xml);
    writeFileSync(path.join(dir, 'issue.xml.bz2'), execFileSync('bzip2', ['-c'], { input: xml }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads plain, .gz and .bz2 files to the same uncompressed XML', async () => {
    const locations = [path.join(dir, 'issue.xml'), TRIMMED_GZ, path.join(dir, 'issue.xml.bz2')];
    for (const location of locations) {
      const issue = await readAll(location);
      expect([issue.issueDate, issue.entries.length, issue.sha256, issue.bytes]).toEqual([
        '2025-03-21',
        616,
        TRIMMED_XML_SHA256,
        xml.length,
      ]);
    }
  });

  it('rejects a missing file with SdnSourceError', async () => {
    await expect(openSdnSource(path.join(dir, 'absent.xml.bz2'))).rejects.toThrow(SdnSourceError);
    await expect(openSdnSource(dir)).rejects.toThrow(/not a file/);
  });

  it("fails the read with bzip2's own message when the .bz2 file is corrupt or cut", async () => {
    const whole = readFileSync(path.join(dir, 'issue.xml.bz2'));
    const cut = path.join(dir, 'cut.xml.bz2');
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(readAll(cut)).rejects.toThrow(/bzip2 -dc failed \(2\): .*ends unexpectedly/);
  });

  it('fails the read when a .gz file is cut', async () => {
    const whole = readFileSync(TRIMMED_GZ);
    const cut = path.join(dir, 'cut.xml.gz');
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(readAll(cut)).rejects.toThrow(/unexpected end of file/);
  });

  it('says bzip2 is missing when it is', async () => {
    const stream = await openSdnSource(path.join(dir, 'issue.xml.bz2'), undefined, { bzip2: path.join(dir, 'bzip2') });
    await expect(parseSdnAdvanced(stream)).rejects.toThrow(/bzip2 is not installed \(apt-get install bzip2\)/);
  });

  it('stops reading when the signal aborts', async () => {
    const controller = new AbortController();
    const stream = await openSdnSource(path.join(dir, 'issue.xml.bz2'), controller.signal);
    controller.abort(new Error('shutting down'));
    await expect(parseSdnAdvanced(stream)).rejects.toThrow(/abort/i);
  });
});

describe('openSdnSource from http(s)', () => {
  const gz = readFileSync(TRIMMED_GZ);
  let server: Server;
  let base: string;
  const stalled = new Set<ServerResponse>();
  let loopHits = 0;
  /** Another origin: what it was sent (the credentials of the first must not follow the redirect). */
  let other: Server;
  let elsewhere: string;
  const otherAuthorization: (string | undefined)[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/sdn_advanced.xml.gz') return res.end(gz);
      if (req.url === '/sdn_advanced.xml') {
        // Sent gzip-encoded, as a server may: fetch decodes it, the parser sees the XML.
        res.writeHead(200, { 'content-type': 'application/xml', 'content-encoding': 'gzip' });
        return res.end(gz);
      }
      // Redirects: one that loops forever, a chain of n hops to the issue, one to a file: URL.
      if (req.url === '/loop.xml.gz') {
        loopHits++;
        return res.writeHead(302, { location: '/loop.xml.gz' }).end();
      }
      const hop = req.url?.match(/^\/hops\/(\d+)\.xml\.gz$/);
      if (hop) {
        const left = Number(hop[1]);
        if (left === 0) return res.end(gz);
        return res.writeHead(307, { location: `/hops/${left - 1}.xml.gz` }).end();
      }
      if (req.url === '/to-file.xml') return res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      if (req.url === '/private.xml.gz') {
        // The URL's user:pass@ arrives as Basic authorization; the issue lives on another origin.
        if (req.headers.authorization !== `Basic ${Buffer.from('reader:s3cret').toString('base64')}`)
          return res.writeHead(401).end();
        return res.writeHead(302, { location: `${elsewhere}/issue.xml.gz` }).end();
      }
      if (req.url === '/slow.xml') {
        // Half the document, then nothing: the download deadline must end it.
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.write(gunzipSync(gz).subarray(0, 100_000));
        stalled.add(res);
        return;
      }
      res.writeHead(404).end('not here');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    other = createServer((req, res) => {
      otherAuthorization.push(req.headers.authorization);
      res.end(gz);
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    elsewhere = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const res of stalled) res.destroy();
    await new Promise((resolve) => server.close(resolve));
    await new Promise((resolve) => other.close(resolve));
  });

  it('streams a download, compressed by name or by content-encoding', async () => {
    for (const url of [`${base}/sdn_advanced.xml.gz`, `${base}/sdn_advanced.xml`]) {
      const issue = await readAll(url);
      expect([issue.issueDate, issue.entries.length, issue.sha256]).toEqual(['2025-03-21', 616, TRIMMED_XML_SHA256]);
    }
  });

  it('rejects an HTTP error status with SdnSourceError', async () => {
    await expect(openSdnSource(`${base}/missing.xml?key=secret`)).rejects.toThrow(
      /^cannot download 127\.0\.0\.1:\d+\/missing\.xml: HTTP 404$/,
    );
  });

  it('ends a download that outlasts its deadline', async () => {
    const started = Date.now();
    await expect(readAll(`${base}/slow.xml`, undefined, 300)).rejects.toThrow(/took longer than 300 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
  it(`follows up to ${SDN_MAX_REDIRECTS} redirects (OFAC's endpoint answers with one) and no more`, async () => {
    const issue = await readAll(`${base}/hops/${SDN_MAX_REDIRECTS}.xml.gz`);
    expect([issue.issueDate, issue.sha256]).toEqual(['2025-03-21', TRIMMED_XML_SHA256]);
    await expect(openSdnSource(`${base}/hops/${SDN_MAX_REDIRECTS + 1}.xml.gz`)).rejects.toThrow(
      /^cannot download 127\.0\.0\.1:\d+\/hops\/4\.xml\.gz: more than 3 redirects$/,
    );
  });

  it('gives up on a server that redirects forever after the first request and 3 redirects', async () => {
    loopHits = 0;
    const error = await openSdnSource(`${base}/loop.xml.gz`).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(SdnSourceError);
    expect((error as Error).message).toMatch(/more than 3 redirects/);
    expect(loopHits).toBe(1 + SDN_MAX_REDIRECTS);
  });

  it('follows a redirect to http(s) only', async () => {
    await expect(openSdnSource(`${base}/to-file.xml`)).rejects.toThrow(
      /HTTP 302 to a file: URL: only http\(s\) is followed/,
    );
  });

  it("sends a URL's credentials to its own origin only, never along a redirect to another", async () => {
    otherAuthorization.length = 0;
    const issue = await readAll(`${base.replace('http://', 'http://reader:s3cret@')}/private.xml.gz`);
    expect(issue.sha256).toBe(TRIMMED_XML_SHA256);
    expect(otherAuthorization).toEqual([undefined]);
  });
});
