/**
 * A labelled field for an address or transaction hash (monospaced, no autocomplete or spell-check), with its
 * complaint, if any, as an alert the field points at (id `<id>-error`) so screen readers read it with the field.
 */
export function AddressField({
  id,
  label,
  value,
  error,
  onInput,
}: {
  id: string;
  label: string;
  value: string;
  error: string | null | undefined;
  onInput: (value: string) => void;
}) {
  const errorId = `${id}-error`;
  return (
    <>
      <label for={id}>{label}</label>
      <input
        id={id}
        type="text"
        class="mono"
        autoComplete="off"
        spellcheck={false}
        value={value}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? errorId : undefined}
        onInput={(e) => onInput((e.target as HTMLInputElement).value)}
      />
      {error && (
        <p id={errorId} class="notice notice-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
