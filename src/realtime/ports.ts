import type { Credentials, Identity } from '../identity';

/** What the sockets' handshakes need of the feature that holds the accounts. */
declare module '../platform/features/feature-ports' {
  interface FeaturePorts {
    /** Who a socket's credentials (API key or session token) belong to; null refuses the socket. */
    socketIdentity: (credentials: Credentials) => Promise<Identity | null>;
  }
}
