import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice';
import type { Monitor } from './monitor-types';

/**
 * Delete in two steps, both ordinary buttons (keyboard and screen-reader friendly, unlike window.confirm), like
 * revoking a key. A deleted monitor stops screening; its alerts are no longer listed.
 */
export function DeleteMonitorControl({
  monitor,
  onDelete,
}: {
  monitor: Monitor;
  onDelete: (id: string) => Promise<void>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const firstRender = useRef(true);

  // The button that had the focus is replaced: hand the focus to its counterpart, not to the page.
  useLayoutEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    (confirming ? confirmButton : deleteButton).current?.focus();
  }, [confirming]);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onDelete(monitor.id);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  const target = <span class="visually-hidden"> the monitor of {monitor.address}</span>;
  if (!confirming) {
    return (
      <button type="button" class="danger" ref={deleteButton} onClick={() => setConfirming(true)}>
        Delete{target}
      </button>
    );
  }
  const warningId = `delete-warning-${monitor.id}`;
  return (
    <div class="delete-confirm">
      <p id={warningId} class="hint">
        The address is no longer screened and its alerts are no longer listed. This cannot be undone.
      </p>
      <div class="form-actions">
        <button
          type="button"
          class="danger"
          ref={confirmButton}
          aria-describedby={warningId}
          disabled={busy}
          onClick={confirm}
        >
          {busy ? 'Deleting…' : 'Confirm delete'}
          {target}
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={() => setConfirming(false)}>
          Cancel
        </button>
      </div>
      <ErrorNotice error={error} />
    </div>
  );
}
