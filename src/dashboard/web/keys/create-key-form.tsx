import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice';
import { useSession } from '../context';
import type { CreatedApiKey } from './key-types';

/** Names and creates a key; the full key goes to the parent, which shows it once. */
export function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const { api } = useSession();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const body = await api.post<{ data: CreatedApiKey }>(
        '/api/v1/api-keys',
        name.trim() ? { name: name.trim() } : {},
      );
      setName('');
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
      <button type="submit" disabled={busy}>
        {busy ? 'Creating…' : 'Create key'}
      </button>
      <ErrorNotice error={error} />
    </form>
  );
}
