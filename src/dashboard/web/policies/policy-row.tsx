import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice';
import { hrefFor } from '../hash-route';
import { utcMinuteOrDash } from '../markets/utc-time';
import { DeletePolicyControl } from './delete-policy-control';
import type { PolicyView } from './policy-types';

export interface PolicyActions {
  makeDefault(id: string): Promise<void>;
  remove(id: string): Promise<void>;
}

/** One policy of the list: name, id, current version, whether it is the default (or a button making it so), actions. */
export function PolicyRow({
  policy,
  selected,
  actions,
}: {
  policy: PolicyView;
  selected: boolean;
  actions: PolicyActions;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const named = <span class="visually-hidden"> {policy.name}</span>;

  const makeDefault = async () => {
    setBusy(true);
    setError(null);
    try {
      await actions.makeDefault(policy.id);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <tr data-testid="policy-row" data-id={policy.id} aria-current={selected ? 'true' : undefined}>
      <th scope="row">
        {policy.name}
        {policy.description && <div class="hint">{policy.description}</div>}
      </th>
      <td class="mono">{policy.id}</td>
      <td data-testid="policy-version">v{policy.version}</td>
      <td data-testid="policy-default">
        {policy.default ? (
          <strong class="default-mark">Default</strong>
        ) : (
          <button type="button" class="secondary" disabled={busy} onClick={makeDefault}>
            {busy ? 'Saving…' : 'Make default'}
            {named}
          </button>
        )}
        <ErrorNotice error={error} />
      </td>
      <td>{utcMinuteOrDash(policy.updated_at)}</td>
      <td>
        <div class="row-actions">
          {selected ? (
            <span class="hint">edited below</span>
          ) : (
            <a href={hrefFor('policies', policy.id)}>
              Edit
              {named}
            </a>
          )}
          <DeletePolicyControl policy={policy} onDelete={actions.remove} />
        </div>
      </td>
    </tr>
  );
}
