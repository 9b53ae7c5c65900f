import { type PolicyActions, PolicyRow } from './policy-row';
import type { PolicyView } from './policy-types';

/** The account's policies at their current versions. */
export function PolicyTable({
  policies,
  selectedId,
  actions,
}: {
  policies: PolicyView[];
  selectedId: string | null;
  actions: PolicyActions;
}) {
  if (policies.length === 0)
    return (
      <p class="hint" data-testid="policies-empty">
        You have no policies yet: every answer is scored by the standard model. Create one to change how yours are.
      </p>
    );
  return (
    <div class="table-scroll">
      <table class="wide-table policy-table" data-testid="policy-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Id</th>
            <th scope="col">Version</th>
            <th scope="col">Default</th>
            <th scope="col">Saved</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {policies.map((policy) => (
            <PolicyRow key={policy.id} policy={policy} selected={policy.id === selectedId} actions={actions} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
