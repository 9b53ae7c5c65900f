import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import http2 from 'node:http2';
import net from 'node:net';
import tls from 'node:tls';
import { Client } from '@temporalio/client';
import {
  connectTemporalClient,
  connectTemporalWorker,
  type TemporalConnectionConfig,
  temporalConnectionOptions,
} from '../../src/platform/temporal/temporal-connection';
import { createTestPki, type TestPki } from '../helpers/tls-pki';

const SERVER_NAME = 'temporal.internal';

interface MtlsProxy {
  address: string;
  /** Connections that completed the mutual TLS handshake and were forwarded to Temporal. */
  forwarded: string[];
  close(): Promise<void>;
}

/**
 * A TLS terminator in front of the run's real Temporal dev server, which cannot speak TLS itself (`temporal server
 * start-dev` has no TLS flags): it demands a client certificate issued by the test CA, as a self-hosted frontend
 * with `requireClientAuth` does, and pipes the decrypted HTTP/2 bytes to the dev server. So a connection that gets a
 * call answered has passed a real mTLS handshake, and Temporal's own answers come back over it.
 */
async function startMtlsProxy(pki: TestPki, upstream: string): Promise<MtlsProxy> {
  const [host, port] = [upstream.slice(0, upstream.lastIndexOf(':')), Number(upstream.split(':').pop())];
  const forwarded: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = tls.createServer(
    {
      key: readFileSync(pki.server.key),
      cert: readFileSync(pki.server.crt),
      ca: readFileSync(pki.ca.crt),
      requestCert: true,
      rejectUnauthorized: true,
      ALPNProtocols: ['h2'],
    },
    (client) => {
      forwarded.push(String(client.getPeerCertificate().subject?.CN));
      const target = net.connect(port, host);
      for (const s of [client, target]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          target.destroy();
        });
      }
      client.pipe(target).pipe(client);
    },
  );
  server.on('tlsClientError', () => undefined); // refused handshakes are what several tests expect
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

interface FakeCloudFrontend {
  address: string;
  /** The authorization and temporal-namespace headers of every call received. */
  calls: { path: string; authorization?: string; namespace?: string }[];
  close(): Promise<void>;
}

/**
 * Stands in for Temporal Cloud's API-key endpoint, which the tests cannot reach: TLS (server certificate only), and
 * every gRPC call answered with an empty message (a valid GetSystemInfoResponse) when it carries
 * `authorization: Bearer <apiKey>`, else UNAUTHENTICATED, as the cloud answers a wrong key.
 */
async function startFakeCloudFrontend(pki: TestPki, apiKey: string): Promise<FakeCloudFrontend> {
  const calls: FakeCloudFrontend['calls'] = [];
  const server = http2.createSecureServer({ key: readFileSync(pki.server.key), cert: readFileSync(pki.server.crt) });
  server.on('stream', (stream, headers) => {
    const authorization = headers.authorization as string | undefined;
    calls.push({ path: String(headers[':path']), authorization, namespace: headers['temporal-namespace'] as string });
    stream.resume();
    stream.on('end', () => {
      if (authorization !== `Bearer ${apiKey}`) {
        const refusal = { 'grpc-status': '16', 'grpc-message': 'invalid API key' };
        stream.respond({ ':status': 200, 'content-type': 'application/grpc', ...refusal }, { endStream: true });
        return;
      }
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(Buffer.alloc(5)); // not compressed, length 0: the empty message
    });
  });
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (s) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sessions) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Whether a connection of each kind is refused, and with what message. */
async function refusal(connect: () => Promise<{ close(): Promise<void> }>): Promise<string> {
  try {
    const connection = await connect();
    await connection.close();
    return 'connected';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

describe('Temporal connections built by the one connection factory', () => {
  let pki: TestPki;
  let proxy: MtlsProxy;
  let cloud: FakeCloudFrontend;
  let mtls: TemporalConnectionConfig;

  beforeAll(async () => {
    pki = createTestPki(SERVER_NAME);
    proxy = await startMtlsProxy(pki, process.env.TEST_TEMPORAL_ADDRESS as string);
    cloud = await startFakeCloudFrontend(pki, 'tcsk-test-key');
    mtls = {
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_TLS_CERT: pki.client.crt,
      TEMPORAL_TLS_KEY: pki.client.key,
      TEMPORAL_TLS_CA: pki.ca.crt,
      TEMPORAL_TLS_SERVER_NAME: SERVER_NAME,
    };
  });
  afterAll(async () => {
    await proxy?.close();
    await cloud?.close();
    if (pki) rmSync(pki.dir, { recursive: true, force: true });
  });

  test(
    'when the client and the worker connection present the configured client certificate, then both pass the ' +
      'mTLS handshake and the real Temporal frontend answers them (a workflow starts and is terminated)',
    async () => {
      // Arrange: the worker side gets the same PEMs as one-line text with literal \n, as some secret stores hand out.
      const inline = (file: string) => readFileSync(file, 'utf8').replace(/\n/g, '\\n');
      const inlineConfig = {
        ...mtls,
        TEMPORAL_TLS_CERT: inline(pki.client.crt),
        TEMPORAL_TLS_KEY: inline(pki.client.key),
        TEMPORAL_TLS_CA: inline(pki.ca.crt),
      };

      // Act
      const clientConnection = await connectTemporalClient(temporalConnectionOptions(mtls, proxy.address));
      const workerConnection = await connectTemporalWorker(temporalConnectionOptions(inlineConfig, proxy.address));
      try {
        const client = new Client({ connection: clientConnection, namespace: 'default' });
        const handle = await client.workflow.start('mtlsProbeWorkflow', {
          taskQueue: `mtls-${randomUUID()}`,
          workflowId: `mtls-probe-${randomUUID()}`,
        });
        const described = await handle.describe();
        await handle.terminate('mTLS test');
        const system = await workerConnection.workflowService.getSystemInfo({});

        // Assert
        expect(described.status.name).toBe('RUNNING');
        expect(system.serverVersion).toMatch(/^\d+\.\d+/);
        expect(new Set(proxy.forwarded)).toEqual(new Set(['client']));
      } finally {
        await clientConnection.close();
        await workerConnection.close();
      }
    },
  );

  test(
    'when a connection has no client certificate, one from another CA, no server name for the certificate, or ' +
      'no CA for it, then the handshake fails for the client and the worker and nothing reaches Temporal',
    async () => {
      // Arrange
      const before = proxy.forwarded.length;
      const variants: Record<string, TemporalConnectionConfig> = {
        'no client certificate': { ...mtls, TEMPORAL_TLS_CERT: undefined, TEMPORAL_TLS_KEY: undefined },
        'a certificate of another CA': {
          ...mtls,
          TEMPORAL_TLS_CERT: pki.rogueClient.crt,
          TEMPORAL_TLS_KEY: pki.rogueClient.key,
        },
        'no server name': { ...mtls, TEMPORAL_TLS_SERVER_NAME: undefined },
        'no CA (system roots)': { ...mtls, TEMPORAL_TLS_CA: undefined },
      };

      // Act
      const outcomes: Record<string, [string, string]> = {};
      for (const [name, config] of Object.entries(variants)) {
        outcomes[name] = [
          await refusal(() =>
            connectTemporalClient(temporalConnectionOptions(config, proxy.address), { connectTimeout: 2_000 }),
          ),
          await refusal(() => connectTemporalWorker(temporalConnectionOptions(config, proxy.address))),
        ];
      }

      // Assert
      for (const [name, [client, worker]] of Object.entries(outcomes)) {
        expect([name, client]).toEqual([name, expect.stringMatching(/Failed to connect/)]);
        // The native client's wording depends on which side aborts the TLS 1.3 handshake; it never connects.
        expect([name, worker]).not.toEqual([name, 'connected']);
      }
      expect(proxy.forwarded.length).toBe(before);
    },
  );

  test(
    'when an API key is configured, then both connections use TLS and send it as a bearer token with the ' +
      'namespace, and a wrong key is refused',
    async () => {
      // Arrange
      const cloudConfig: TemporalConnectionConfig = {
        TEMPORAL_NAMESPACE: 'chainscreen-prod.a1b2c',
        TEMPORAL_API_KEY: 'tcsk-test-key',
        TEMPORAL_TLS_CA: pki.ca.crt,
        TEMPORAL_TLS_SERVER_NAME: SERVER_NAME,
      };

      // Act
      const client = await connectTemporalClient(temporalConnectionOptions(cloudConfig, cloud.address));
      const worker = await connectTemporalWorker(temporalConnectionOptions(cloudConfig, cloud.address));
      await client.close();
      await worker.close();
      const accepted = cloud.calls.splice(0);
      const wrongKey = { ...cloudConfig, TEMPORAL_API_KEY: 'tcsk-wrong' };
      const refused = [
        await refusal(() =>
          connectTemporalClient(temporalConnectionOptions(wrongKey, cloud.address), { connectTimeout: 2_000 }),
        ),
        await refusal(() => connectTemporalWorker(temporalConnectionOptions(wrongKey, cloud.address))),
      ];

      // Assert
      expect(accepted.length).toBeGreaterThanOrEqual(2);
      for (const call of accepted)
        expect(call).toMatchObject({
          authorization: 'Bearer tcsk-test-key',
          namespace: 'chainscreen-prod.a1b2c',
        });
      expect(refused).toEqual([expect.stringMatching(/Failed to connect/), expect.stringMatching(/invalid API key/)]);
      // The refusals are the frontend's answer to the key it was sent, not a TLS failure.
      expect(cloud.calls.length).toBeGreaterThanOrEqual(2);
      expect(new Set(cloud.calls.map((c) => c.authorization))).toEqual(new Set(['Bearer tcsk-wrong']));
    },
  );
});
