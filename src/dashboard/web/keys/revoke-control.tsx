import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice';
import { useSession } from '../context';
import type { ApiKeyRecord } from './key-types';

/**
 * Revoke in two steps, both ordinary buttons (keyboard and screen-reader friendly, unlike
 * window.confirm). Revoking the key this tab signed in with warns first; afterwards the next request
 * is refused and the app signs out.
 */
export function RevokeControl({
  apiKey,
  isSignedInKey,
  onRevoked,
}: {
  apiKey: ApiKeyRecord;
  isSignedInKey: boolean;
  onRevoked: () => void;
}) {
  const { api } = useSession();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const revokeButton = useRef<HTMLButtonElement>(null);
  const firstRender = useRef(true);

  // The button that had the focus is replaced: hand the focus to its counterpart, not to the page.
  useLayoutEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    (confirming ? confirmButton : revokeButton).current?.focus();
  }, [confirming]);

  const revoke = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.delete(`/api/v1/api-keys/${encodeURIComponent(apiKey.id)}`);
      onRevoked();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  if (!confirming) {
    return (
      <button type="button" class="danger" ref={revokeButton} onClick={() => setConfirming(true)}>
        Revoke
        <span class="visually-hidden">
          {' '}
          {apiKey.name} ({apiKey.prefix}…)
        </span>
      </button>
    );
  }
  const warningId = `revoke-warning-${apiKey.id}`;
  return (
    <div class="revoke-confirm">
      <p id={warningId} class={isSignedInKey ? 'notice notice-error' : 'hint'}>
        {isSignedInKey
          ? 'This is the key you are signed in with. Revoking it signs you out of this dashboard, ' +
            'and every program using it stops working at once.'
          : 'Programs using this key stop working at once. This cannot be undone.'}
      </p>
      <div class="form-actions">
        <button
          type="button"
          class="danger"
          ref={confirmButton}
          aria-describedby={warningId}
          disabled={busy}
          onClick={revoke}
        >
          {busy ? 'Revoking…' : 'Confirm revoke'}
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={() => setConfirming(false)}>
          Cancel
        </button>
      </div>
      <ErrorNotice error={error} />
    </div>
  );
}
