import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice';
import { useSession } from '../context';
import type { CreatedApiKey } from './key-types';
import { SCOPE_WORDS } from './scope-words';

/**
 * Names a key and chooses what it may do, among the scopes of the credential signed in (a key can give no more
 * than it holds); the full key goes to the parent, which shows it once.
 */
export function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const { api, me } = useSession();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<CreatedApiKey['scopes']>(me.scopes);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const toggle = (scope: CreatedApiKey['scopes'][number], on: boolean) =>
    setScopes((current) => me.scopes.filter((s) => (s === scope ? on : current.includes(s))));

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy || scopes.length === 0) return;
    setBusy(true);
    setError(null);
    try {
      const body = await api.post<{ data: CreatedApiKey }>('/api/v1/api-keys', {
        ...(name.trim() ? { name: name.trim() } : {}),
        scopes,
      });
      setName('');
      setScopes(me.scopes);
      onCreated(body.data);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} class="inline-form">
      <div class="inline-form-field">
        <label for="new-key-name">Name of the new key</label>
        <input
          id="new-key-name"
          type="text"
          maxLength={100}
          placeholder="e.g. ci, backend, laptop"
          value={name}
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
      </div>
      <fieldset class="choice key-scopes">
        <legend>What the key may do</legend>
        {me.scopes.map((scope) => (
          <label key={scope}>
            <input
              type="checkbox"
              name="new-key-scope"
              value={scope}
              checked={scopes.includes(scope)}
              onChange={(e) => toggle(scope, (e.target as HTMLInputElement).checked)}
            />{' '}
            {SCOPE_WORDS[scope]}
          </label>
        ))}
        {scopes.length === 0 && <p class="hint">Choose at least one.</p>}
      </fieldset>
      <button type="submit" disabled={busy || scopes.length === 0}>
        {busy ? 'Creating…' : 'Create key'}
      </button>
      <ErrorNotice error={error} />
    </form>
  );
}
