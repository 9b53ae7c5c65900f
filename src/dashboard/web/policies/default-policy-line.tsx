import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice';
import type { PolicyView } from './policy-types';
import { policyVersionName } from './policy-words';

/** Which policy scores the jobs that name none: the default policy, with a way back to the standard model. */
export function DefaultPolicyLine({ policy, onClear }: { policy: PolicyView | null; onClear: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const clear = async () => {
    setBusy(true);
    setError(null);
    try {
      await onClear();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p class="default-policy" data-testid="account-default">
        Account default: {policy ? <strong>{policyVersionName(policy)}</strong> : <strong>the standard model</strong>}
        {policy && (
          <>
            {' '}
            <button type="button" class="link" disabled={busy} onClick={clear}>
              {busy ? 'Saving…' : 'Use the standard model instead'}
            </button>
          </>
        )}
      </p>
      <ErrorNotice error={error} />
    </>
  );
}
