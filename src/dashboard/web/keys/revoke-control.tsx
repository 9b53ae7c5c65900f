import { ConfirmAction } from '../components/confirm-action';
import { useSession } from '../context';
import type { ApiKeyRecord } from './key-types';

/**
 * Revoke in two steps (see ConfirmAction). Revoking the key this tab signed in with warns first; afterwards the
 * next request is refused and the app signs out.
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

  const revoke = async () => {
    await api.delete(`/api/v1/api-keys/${encodeURIComponent(apiKey.id)}`);
    onRevoked();
  };

  return (
    <ConfirmAction
      action={
        <>
          Revoke
          <span class="visually-hidden">
            {' '}
            {apiKey.name} ({apiKey.prefix}…)
          </span>
        </>
      }
      confirmLabel="Confirm revoke"
      busyLabel="Revoking…"
      warning={
        isSignedInKey
          ? 'This is the key you are signed in with. Revoking it signs you out of this dashboard, ' +
            'and every program using it stops working at once.'
          : 'Programs using this key stop working at once. This cannot be undone.'
      }
      warningId={`revoke-warning-${apiKey.id}`}
      warningClass={isSignedInKey ? 'notice notice-error' : 'hint'}
      confirmClass="revoke-confirm"
      onConfirm={revoke}
    />
  );
}
