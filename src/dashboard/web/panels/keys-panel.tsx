import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice';
import { CreateKeyForm } from '../keys/create-key-form';
import { KeyTable } from '../keys/key-table';
import type { CreatedApiKey } from '../keys/key-types';
import { NewKeyBox } from '../keys/new-key-box';
import { signedInKeyPrefix } from '../keys/signed-in-key';
import { useApiKeys } from '../keys/use-api-keys';
import type { PanelProps } from './panel-props';

/** Create, list and revoke the account's API keys; a new key is shown once. */
export function KeysPanel(_props: PanelProps) {
  const { keys, error, reload } = useApiKeys();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const signedInPrefix = signedInKeyPrefix();

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      <p class="hint">
        Send a key as <span class="mono">x-api-key</span> (or <span class="mono">Authorization: Bearer</span>). Keys are
        stored hashed: the full key is shown only when it is created.
      </p>
      {created && <NewKeyBox created={created} onDismiss={() => setCreated(null)} />}
      <CreateKeyForm
        onCreated={(key) => {
          setCreated(key);
          setAnnouncement('');
          void reload();
        }}
      />
      <h2>Your keys</h2>
      <p role="status" class="visually-hidden">
        {announcement}
      </p>
      <ErrorNotice error={error} />
      {keys ? (
        <KeyTable
          keys={keys}
          signedInPrefix={signedInPrefix}
          onRevoked={() => {
            setAnnouncement('The key was revoked.');
            void reload();
          }}
        />
      ) : (
        !error && <p role="status">Loading your keys…</p>
      )}
    </section>
  );
}
