import type { PoliciesState } from './use-policies';
import { policyVersionName } from './policy-words';

/** The value of the choice "the account's default" (no policy_id is sent). */
export const ACCOUNT_DEFAULT = '';
export const STANDARD_MODEL = 'standard';

/**
 * "Risk policy": which policy scores the answers, as one cell of a form grid. `withDefault` offers "the account's
 * default" (sent as no policy_id) first; the standard model and each policy of the account follow.
 */
export function PolicySelect({
  id,
  label = 'Risk policy',
  value,
  policies,
  withDefault,
  onChange,
}: {
  id: string;
  label?: string;
  value: string;
  policies: PoliciesState;
  withDefault: boolean;
  onChange: (policyId: string) => void;
}) {
  const list = policies.policies ?? [];
  const current = list.find((p) => p.id === policies.defaultPolicyId);
  return (
    <div>
      <label for={id}>{label}</label>
      <select
        id={id}
        value={value}
        aria-describedby={policies.error ? `${id}-hint` : undefined}
        onChange={(e) => onChange((e.target as HTMLSelectElement).value)}
      >
        {withDefault && (
          <option value={ACCOUNT_DEFAULT}>
            Account default ({current ? policyVersionName(current) : 'the standard model'})
          </option>
        )}
        <option value={STANDARD_MODEL}>Standard model</option>
        {list.map((p) => (
          <option key={p.id} value={p.id}>
            {policyVersionName(p)} ({p.id})
          </option>
        ))}
      </select>
      {policies.error ? (
        <p id={`${id}-hint`} class="hint">
          Your policies could not be read: only the default and the standard model are offered.
        </p>
      ) : null}
    </div>
  );
}
