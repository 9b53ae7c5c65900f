import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Socket } from 'socket.io-client';
import type { z } from 'zod';
import type { meResponse } from '../../identity';
import type { ApiClient } from './api-client';

/** What every panel needs: the API client of the signed-in credential, its socket, and who it is. */
export interface Session {
  api: ApiClient;
  socket: Socket | null;
  me: Me;
  /** Re-reads /me (balance, role) after a change the socket does not announce. */
  refreshMe(): Promise<void>;
}

/** GET /api/v1/me's data (a type-only import of the route's schema: nothing of the server is bundled). */
export type Me = z.output<typeof meResponse>['data'];

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}
