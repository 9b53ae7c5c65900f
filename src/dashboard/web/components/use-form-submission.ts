import { useState } from 'preact/hooks';

/**
 * What a form with one required field knows about its last submission: the refusal, whether the field was left
 * empty, and whether a submission is under way. `onClear` clears whatever else the form says about the last
 * submission (a confirmation, say).
 */
export function useFormSubmission(onClear?: () => void) {
  const [error, setError] = useState<unknown>(null);
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);

  const clear = () => {
    setError(null);
    setMissing(false);
    onClear?.();
  };

  // A complaint is about what was sent: it goes as soon as any of that changes.
  const changed =
    <T>(apply: (value: T) => void) =>
    (value: T) => {
      apply(value);
      clear();
    };

  /** The submit handler: `send` gets the required value trimmed, unless it is empty; a refusal becomes `error`. */
  const submitting = (required: string, send: (trimmed: string) => Promise<unknown>) => async (event: Event) => {
    event.preventDefault();
    const trimmed = required.trim();
    setError(null);
    setMissing(!trimmed);
    onClear?.();
    if (!trimmed || busy) return;
    setBusy(true);
    try {
      await send(trimmed);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return { error, missing, busy, changed, submitting };
}
