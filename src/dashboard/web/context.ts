import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Socket } from 'socket.io-client';
import type { ApiClient } from './api-client';

/** What every panel needs: the API client of the signed-in credential, its socket, and who it is. */
export interface Session {
  api: ApiClient;
  socket: Socket | null;
  me: Me;
  /** Re-reads /me (balance, role) after a change the socket does not announce. */
  refreshMe(): Promise<void>;
}

/** GET /api/v1/me's data. */
export interface Me {
  id: string;
  role: 'user' | 'admin';
  clerkUserId?: string | null;
  credits?: { balance: number; reserved: number; available: number };
  [key: string]: unknown;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}
