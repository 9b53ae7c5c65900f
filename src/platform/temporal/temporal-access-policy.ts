import { isIP } from 'node:net';

/** The settings that decide how this process reaches the Temporal frontend (see temporal-connection.ts). */
export interface TemporalAccessSettings {
  NODE_ENV: 'development' | 'test' | 'production';
  TEMPORAL_ADDRESS?: string;
  TEMPORAL_TLS_CERT?: string;
  TEMPORAL_TLS_KEY?: string;
  TEMPORAL_TLS_CA?: string;
  TEMPORAL_TLS_SERVER_NAME?: string;
  TEMPORAL_API_KEY?: string;
  TEMPORAL_ALLOW_INSECURE: boolean;
}

/** The host of a `host:port` address (`[v6]:port`, a bare host or a bare IPv6 address too). */
export function addressHost(address: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(address);
  if (bracketed) return bracketed[1] as string;
  if (isIP(address) === 6) return address;
  const colon = address.lastIndexOf(':');
  return colon >= 0 ? address.slice(0, colon) : address;
}

/** Only this machine can reach it: localhost, 127.0.0.0/8 or ::1 (the dev server `npm start` runs binds there). */
export function isLoopbackAddress(address: string): boolean {
  const host = addressHost(address).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(host);
  return false;
}

/**
 * What is wrong with these settings, one `NAME: reason` line each (none = fine). Whoever reaches the Temporal
 * frontend can start any workflow of the task queue (a payment's, which mints credits), so in production a remote
 * frontend must authenticate this process (mTLS or an API key) unless TEMPORAL_ALLOW_INSECURE says the network
 * itself is the guard. Loopback addresses and the embedded dev server (no TEMPORAL_ADDRESS) are this machine's own.
 */
export function temporalAccessProblems(s: TemporalAccessSettings): string[] {
  const problems: string[] = [];
  if (s.TEMPORAL_TLS_CERT && !s.TEMPORAL_TLS_KEY)
    problems.push('TEMPORAL_TLS_KEY: required with TEMPORAL_TLS_CERT (the client certificate needs its private key)');
  if (s.TEMPORAL_TLS_KEY && !s.TEMPORAL_TLS_CERT)
    problems.push('TEMPORAL_TLS_CERT: required with TEMPORAL_TLS_KEY (the private key needs its client certificate)');
  const secured =
    s.TEMPORAL_TLS_CERT || s.TEMPORAL_TLS_KEY || s.TEMPORAL_TLS_CA || s.TEMPORAL_TLS_SERVER_NAME || s.TEMPORAL_API_KEY;
  if (secured && !s.TEMPORAL_ADDRESS)
    problems.push(
      'TEMPORAL_ADDRESS: required with TEMPORAL_TLS_* or TEMPORAL_API_KEY (the embedded dev server speaks plaintext)',
    );
  const authenticated = Boolean((s.TEMPORAL_TLS_CERT && s.TEMPORAL_TLS_KEY) || s.TEMPORAL_API_KEY);
  if (
    s.NODE_ENV === 'production' &&
    s.TEMPORAL_ADDRESS &&
    !isLoopbackAddress(s.TEMPORAL_ADDRESS) &&
    !authenticated &&
    !s.TEMPORAL_ALLOW_INSECURE
  )
    problems.push(
      `TEMPORAL_ADDRESS: ${s.TEMPORAL_ADDRESS} is not on this machine and nothing authenticates the connection: ` +
        'whoever reaches that frontend can start the payment workflows. Set TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY ' +
        '(mTLS, with TEMPORAL_TLS_CA for a private CA) or TEMPORAL_API_KEY (Temporal Cloud), or ' +
        'TEMPORAL_ALLOW_INSECURE=true when only a private network reaches it (see docs/operations.md)',
    );
  return problems;
}
