import { type Column, DataTable } from '../components/data-table';
import { hrefFor } from '../hash-route';
import { utcMinuteOrDash } from '../markets/utc-time';
import { DeletePolicyControl } from './delete-policy-control';
import { MakeDefaultControl } from './make-default-control';
import type { PolicyView } from './policy-types';

export interface PolicyActions {
  makeDefault(id: string): Promise<void>;
  remove(id: string): Promise<void>;
}

const columnsFor = (selectedId: string | null, actions: PolicyActions): Column<PolicyView>[] => [
  {
    header: 'Name',
    rowHeader: true,
    cell: (policy) => (
      <>
        {policy.name}
        {policy.description && <div class="hint">{policy.description}</div>}
      </>
    ),
  },
  { header: 'Id', cell: (policy) => policy.id, class: 'mono' },
  { header: 'Version', cell: (policy) => `v${policy.version}`, testId: 'policy-version' },
  {
    header: 'Default',
    testId: 'policy-default',
    cell: (policy) => <MakeDefaultControl policy={policy} makeDefault={actions.makeDefault} />,
  },
  { header: 'Saved', cell: (policy) => utcMinuteOrDash(policy.updated_at) },
  {
    header: 'Actions',
    cell: (policy) => (
      <div class="row-actions">
        {policy.id === selectedId ? (
          <span class="hint">edited below</span>
        ) : (
          <a href={hrefFor('policies', policy.id)}>
            Edit
            <span class="visually-hidden"> {policy.name}</span>
          </a>
        )}
        <DeletePolicyControl policy={policy} onDelete={actions.remove} />
      </div>
    ),
  },
];

/** The account's policies at their current versions: name, id, version, the default (or a button making it so). */
export function PolicyTable({
  policies,
  selectedId,
  actions,
}: {
  policies: PolicyView[];
  selectedId: string | null;
  actions: PolicyActions;
}) {
  return (
    <DataTable
      class="wide-table policy-table"
      testId="policy-table"
      columns={columnsFor(selectedId, actions)}
      rows={policies}
      rowKey={(policy) => policy.id}
      rowAttributes={(policy) => ({ 'data-testid': 'policy-row', 'data-id': policy.id })}
      isSelected={(policy) => policy.id === selectedId}
      empty="You have no policies yet: every answer is scored by the standard model. Create one to change how yours are."
      emptyTestId="policies-empty"
    />
  );
}
