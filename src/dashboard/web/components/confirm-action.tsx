import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ErrorNotice } from './error-notice';

/**
 * A destructive action in two steps, both ordinary buttons (keyboard and screen-reader friendly, unlike
 * window.confirm): the first button asks, the second one, described by the warning, acts. A refusal is shown
 * under the buttons and they can be used again; on success the buttons stay busy, as the caller replaces them.
 */
export function ConfirmAction({
  action,
  confirmLabel,
  busyLabel,
  confirmSuffix,
  warning,
  warningId,
  warningClass,
  confirmClass,
  onConfirm,
}: {
  /** The first button's content: the verb, with what it acts on for screen readers. */
  action: ComponentChildren;
  /** The second button's words, and its words while `onConfirm` runs. */
  confirmLabel: string;
  busyLabel: string;
  /** Read after the second button's words (what it acts on), if anything. */
  confirmSuffix?: ComponentChildren;
  warning: ComponentChildren;
  /** Unique on the page: the second button points at the warning by it. */
  warningId: string;
  warningClass: string;
  /** The class of the block shown while confirming. */
  confirmClass: string;
  onConfirm: () => Promise<void>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const actionButton = useRef<HTMLButtonElement>(null);
  const firstRender = useRef(true);

  // The button that had the focus is replaced: hand the focus to its counterpart, not to the page.
  useLayoutEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    (confirming ? confirmButton : actionButton).current?.focus();
  }, [confirming]);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  if (!confirming) {
    return (
      <button type="button" class="danger" ref={actionButton} onClick={() => setConfirming(true)}>
        {action}
      </button>
    );
  }
  return (
    <div class={confirmClass}>
      <p id={warningId} class={warningClass}>
        {warning}
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
          {busy ? busyLabel : confirmLabel}
          {confirmSuffix}
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={() => setConfirming(false)}>
          Cancel
        </button>
      </div>
      <ErrorNotice error={error} />
    </div>
  );
}
