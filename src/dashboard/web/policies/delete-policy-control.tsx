import { ConfirmAction } from '../components/confirm-action';
import type { PolicyView } from './policy-types';

/**
 * Delete in two steps, like revoking a key (see ConfirmAction). Answers already scored under the policy keep their
 * copy of it; jobs can no longer name it, and an account whose default it was goes back to the standard model.
 */
export function DeletePolicyControl({
  policy,
  onDelete,
}: {
  policy: PolicyView;
  onDelete: (id: string) => Promise<void>;
}) {
  const target = <span class="visually-hidden"> the policy {policy.name}</span>;
  return (
    <ConfirmAction
      action={<>Delete{target}</>}
      confirmLabel="Confirm delete"
      busyLabel="Deleting…"
      confirmSuffix={target}
      warning={
        policy.default
          ? 'This is the account default: jobs that name no policy go back to the standard model. ' +
            'Answers already scored keep their copy. This cannot be undone.'
          : 'Jobs can no longer name it; answers already scored keep their copy. This cannot be undone.'
      }
      warningId={`delete-policy-warning-${policy.id}`}
      warningClass="hint"
      confirmClass="delete-confirm"
      onConfirm={() => onDelete(policy.id)}
    />
  );
}
