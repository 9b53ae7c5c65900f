import { ConfirmAction } from '../components/confirm-action';
import type { Monitor } from './monitor-types';

/**
 * Delete in two steps, like revoking a key (see ConfirmAction). A deleted monitor stops screening; its alerts are no
 * longer listed.
 */
export function DeleteMonitorControl({
  monitor,
  onDelete,
}: {
  monitor: Monitor;
  onDelete: (id: string) => Promise<void>;
}) {
  const target = <span class="visually-hidden"> the monitor of {monitor.address}</span>;
  return (
    <ConfirmAction
      action={<>Delete{target}</>}
      confirmLabel="Confirm delete"
      busyLabel="Deleting…"
      confirmSuffix={target}
      warning="The address is no longer screened and its alerts are no longer listed. This cannot be undone."
      warningId={`delete-warning-${monitor.id}`}
      warningClass="hint"
      confirmClass="delete-confirm"
      onConfirm={() => onDelete(monitor.id)}
    />
  );
}
