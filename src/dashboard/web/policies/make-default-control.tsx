import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice';
import type { PolicyView } from './policy-types';

/** The default policy says so; any other offers a button making it the default, with its refusal below it. */
export function MakeDefaultControl({
  policy,
  makeDefault,
}: {
  policy: PolicyView;
  makeDefault: (id: string) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const onClick = async () => {
    setBusy(true);
    setError(null);
    try {
      await makeDefault(policy.id);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      {policy.default ? (
        <strong class="default-mark">Default</strong>
      ) : (
        <button type="button" class="secondary" disabled={busy} onClick={onClick}>
          {busy ? 'Saving…' : 'Make default'}
          <span class="visually-hidden"> {policy.name}</span>
        </button>
      )}
      <ErrorNotice error={error} />
    </>
  );
}
