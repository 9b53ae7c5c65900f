import { readFileSync } from 'node:fs';
import { Connection, type TLSConfig } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { ConfigError } from '../config/config-error';
import type { PlatformConfig } from '../config/platform-config';

/** What decides how a process reaches the Temporal frontend; loadConfig has already refused unsafe combinations. */
export type TemporalConnectionConfig = Pick<
  PlatformConfig,
  | 'TEMPORAL_NAMESPACE'
  | 'TEMPORAL_TLS_CERT'
  | 'TEMPORAL_TLS_KEY'
  | 'TEMPORAL_TLS_CA'
  | 'TEMPORAL_TLS_SERVER_NAME'
  | 'TEMPORAL_API_KEY'
>;

/** The options both Connection.connect (clients) and NativeConnection.connect (workers) accept. */
export interface TemporalConnectionOptions {
  address: string;
  tls?: TLSConfig;
  apiKey?: string;
  metadata?: Record<string, string>;
}

const PEM_BLOCK = '-----BEGIN ';

/**
 * A PEM value as configured: the PEM text itself (a literal `\n` in a one-line env value reads as a newline) or the
 * path of a PEM file, read now. Errors name the variable and the path, never the content (it may be a private key).
 */
function pem(name: string, value: string): Buffer {
  if (value.includes(PEM_BLOCK)) return Buffer.from(value.replace(/\\n/g, '\n'));
  let text: string;
  try {
    text = readFileSync(value, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(`Invalid configuration:\n  ${name}: cannot read the PEM file ${value} (${reason})`);
  }
  if (!text.includes(PEM_BLOCK))
    throw new ConfigError(`Invalid configuration:\n  ${name}: ${value} holds no PEM block (-----BEGIN …)`);
  return Buffer.from(text);
}

/**
 * The one place connection options are built: every Connection and NativeConnection of the service comes from here,
 * so mTLS and the API key apply to the api, the worker, `npm start` and `npm run lists:update` alike. TLS is on
 * when any TLS setting or an API key is given (an API key never travels in plaintext); the `temporal-namespace`
 * header lets Temporal Cloud's regional endpoints route an API-key call to its namespace. PEM files are read here:
 * entry points call it first thing, so a missing certificate stops the start before anything else is done.
 */
export function temporalConnectionOptions(
  config: TemporalConnectionConfig,
  address: string,
): TemporalConnectionOptions {
  const { TEMPORAL_TLS_CERT: cert, TEMPORAL_TLS_KEY: key, TEMPORAL_TLS_CA: ca } = config;
  const serverName = config.TEMPORAL_TLS_SERVER_NAME;
  const apiKey = config.TEMPORAL_API_KEY;
  const tlsOn = Boolean(cert || key || ca || serverName || apiKey);
  const tls: TLSConfig | undefined = tlsOn
    ? {
        ...(cert && key
          ? { clientCertPair: { crt: pem('TEMPORAL_TLS_CERT', cert), key: pem('TEMPORAL_TLS_KEY', key) } }
          : {}),
        ...(ca ? { serverRootCACertificate: pem('TEMPORAL_TLS_CA', ca) } : {}),
        ...(serverName ? { serverNameOverride: serverName } : {}),
      }
    : undefined;
  return {
    address,
    ...(tls ? { tls } : {}),
    ...(apiKey ? { apiKey, metadata: { 'temporal-namespace': config.TEMPORAL_NAMESPACE } } : {}),
  };
}

/** A client connection (start workflows, schedules, readiness checks) over the factory's options. */
export function connectTemporalClient(
  options: TemporalConnectionOptions,
  extra: { connectTimeout?: number } = {},
): Promise<Connection> {
  return Connection.connect({ ...options, ...extra });
}

/** A worker's native connection over the factory's options. */
export function connectTemporalWorker(options: TemporalConnectionOptions): Promise<NativeConnection> {
  return NativeConnection.connect(options);
}
