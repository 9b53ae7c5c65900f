import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import type { Socket } from 'socket.io-client';
import { createApiClient } from './api-client';
import { ErrorNotice } from './components/error-notice';
import { SignIn } from './components/sign-in';
import { SessionContext, type Me, type Session } from './context';
import { hrefFor, useHashRoute } from './hash-route';
import { HistoryPanel } from './panels/history-panel';
import { BatchPanel } from './panels/batch-panel';
import { CasesPanel } from './panels/cases-panel';
import { CreditsPanel } from './panels/credits-panel';
import { KeysPanel } from './panels/keys-panel';
import { MarketsPanel } from './panels/markets-panel';
import { MonitorsPanel } from './panels/monitors-panel';
import { PoliciesPanel } from './panels/policies-panel';
import { ScreenPanel } from './panels/screen-panel';
import { connectRealtime, useRealtimeEvent, type ConnectionState } from './realtime';
import { loadCredential, saveCredential, type Credential } from './session';

const VIEWS = [
  { id: 'screen', label: 'Screen', Panel: ScreenPanel },
  { id: 'batch', label: 'Batch', Panel: BatchPanel },
  { id: 'activity', label: 'Activity', Panel: HistoryPanel },
  { id: 'monitors', label: 'Monitors', Panel: MonitorsPanel },
  { id: 'cases', label: 'Cases', Panel: CasesPanel },
  { id: 'policies', label: 'Policies', Panel: PoliciesPanel },
  { id: 'credits', label: 'Credits', Panel: CreditsPanel },
  { id: 'keys', label: 'API keys', Panel: KeysPanel },
  { id: 'markets', label: 'Markets', Panel: MarketsPanel },
] as const;

const CONNECTION_WORDS: Record<ConnectionState, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  offline: 'Offline, reconnecting…',
  refused: 'Live updates refused: sign in again',
};

export function App() {
  const [credential, setCredential] = useState<Credential | null>(loadCredential);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const signOut = useCallback((why?: string) => {
    saveCredential(null);
    setCredential(null);
    setNotice(why);
  }, []);
  if (!credential) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(c) => {
          saveCredential(c);
          setNotice(undefined);
          setCredential(c);
        }}
      />
    );
  }
  return <SignedIn credential={credential} signOut={signOut} />;
}

function SignedIn({ credential, signOut }: { credential: Credential; signOut: (why?: string) => void }) {
  const api = useMemo(
    () => createApiClient(credential, () => signOut('Your key or session is no longer accepted. Sign in again.')),
    [credential, signOut],
  );
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [socket, setSocket] = useState<Socket | null>(null);
  const [connection, setConnection] = useState<ConnectionState>('connecting');
  const route = useHashRoute();
  const view = VIEWS.find((v) => v.id === route[0]) ?? VIEWS[0];

  const refreshMe = useCallback(async () => {
    try {
      const body = await api.get<{ data: Me }>('/api/v1/me');
      setMe(body.data);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, [api]);

  useEffect(() => void refreshMe(), [refreshMe]);
  useEffect(() => {
    const s = connectRealtime(credential, setConnection);
    setSocket(s);
    return () => void s.disconnect();
  }, [credential]);

  // The balance in the header follows every grant and charge as it is committed.
  useRealtimeEvent(
    socket,
    'credit_balance_updated',
    useCallback(() => void refreshMe(), [refreshMe]),
  );

  if (!me) {
    return (
      <main class="loading">{error ? <ErrorNotice error={error} /> : <p role="status">Loading your account…</p>}</main>
    );
  }
  const session: Session = { api, socket, me, refreshMe };
  return (
    <SessionContext.Provider value={session}>
      <header class="top">
        <a class="brand" href={hrefFor('screen')}>
          chainscreen
        </a>
        <nav aria-label="Dashboard">
          <ul>
            {VIEWS.map((v) => (
              <li key={v.id}>
                <a href={hrefFor(v.id)} aria-current={v.id === view.id ? 'page' : undefined}>
                  {v.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="account">
          <span class="balance" aria-live="polite">
            Credits: <strong data-testid="header-balance">{me.credits?.available ?? 0}</strong>
          </span>
          <span class={`connection connection-${connection}`} role="status">
            {CONNECTION_WORDS[connection]}
          </span>
          <button type="button" class="link" onClick={() => signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">
        <ErrorNotice error={error} />
        <view.Panel route={route.slice(1)} />
      </main>
    </SessionContext.Provider>
  );
}
