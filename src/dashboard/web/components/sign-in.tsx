import { useEffect, useState } from 'preact/hooks';
import { createApiClient, ApiError } from '../api-client';
import type { Credential } from '../session';
import { ErrorNotice } from './error-notice';

/** Sign-in with an API key, or with a Clerk session JWT when the server accepts them (CLERK_JWT_KEY set). */
export function SignIn({ onSignedIn, notice }: { onSignedIn: (credential: Credential) => void; notice?: string }) {
  const [kind, setKind] = useState<Credential['kind']>('apiKey');
  const [token, setToken] = useState('');
  const [sessionJwt, setSessionJwt] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    fetch('/app/config.json')
      .then((r) => r.json())
      .then((body: { data?: { sessionJwt?: boolean } }) => setSessionJwt(body.data?.sessionJwt === true))
      .catch(() => setSessionJwt(false));
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    const credential: Credential = { kind, token: token.trim() };
    if (!credential.token) {
      setError(new ApiError(kind === 'apiKey' ? 'Enter your API key.' : 'Enter your session token.', 400));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      // Checked against the API before it is kept: a typo is reported here, not as a broken page.
      await createApiClient(credential, () => undefined).get('/api/v1/me');
      onSignedIn(credential);
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 401
          ? new ApiError('That key or token was not accepted. Check it and try again.', 401)
          : err,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in">
      <h1>chainscreen</h1>
      <p>Screen blockchain addresses and transactions for sanctions, mixers, scams and ransomware.</p>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <form onSubmit={submit} aria-describedby="sign-in-help">
        {sessionJwt && (
          <fieldset>
            <legend>Sign in with</legend>
            <label>
              <input
                type="radio"
                name="kind"
                value="apiKey"
                checked={kind === 'apiKey'}
                onChange={() => setKind('apiKey')}
              />{' '}
              API key
            </label>
            <label>
              <input
                type="radio"
                name="kind"
                value="sessionJwt"
                checked={kind === 'sessionJwt'}
                onChange={() => setKind('sessionJwt')}
              />{' '}
              Session token (Clerk JWT)
            </label>
          </fieldset>
        )}
        <label for="credential">{kind === 'apiKey' ? 'API key' : 'Session token'}</label>
        <input
          id="credential"
          name="credential"
          type="password"
          autoComplete="off"
          spellcheck={false}
          value={token}
          onInput={(e) => setToken((e.target as HTMLInputElement).value)}
        />
        <p id="sign-in-help" class="hint">
          The key stays in this tab only and is forgotten when you close it.
        </p>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <ErrorNotice error={error} />
      </form>
      <p>
        API reference: <a href="/docs">/docs</a>
      </p>
    </main>
  );
}
