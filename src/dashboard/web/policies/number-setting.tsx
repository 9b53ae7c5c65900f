import { FieldError } from '../components/field-error';
import { fieldElementId, UNREADABLE_NUMBER } from './policy-form-state';
import type { Range } from './policy-types';
import { rangeWords } from './policy-words';

/**
 * One numeric setting of a policy: its label, the browser's own limits from the model's bounds, the standard value
 * and the allowed range in words, and the API's refusal of it (an alert the input points at) when there is one.
 */
export function NumberSetting({
  field,
  label,
  value,
  range,
  integer,
  standardWords,
  error,
  onInput,
}: {
  /** The API's name of the setting (`levels.HIGH`): the input's id derives from it. */
  field: string;
  label: string;
  value: string;
  range: Range;
  integer: boolean;
  standardWords: string;
  error: string | undefined;
  onInput: (value: string) => void;
}) {
  const id = fieldElementId(field);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div>
      <label for={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode={integer ? 'numeric' : 'decimal'}
        min={range[0]}
        max={range[1]}
        step={integer ? 1 : 'any'}
        // While the browser holds text it cannot read as a number, the page leaves the input as typed.
        value={value === UNREADABLE_NUMBER ? undefined : value}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        onInput={(e) => {
          const input = e.target as HTMLInputElement;
          onInput(input.validity.badInput ? UNREADABLE_NUMBER : input.value);
        }}
      />
      <p id={hintId} class="hint setting-hint">
        {standardWords}; {integer ? 'a whole number ' : ''}
        {rangeWords(range)}
      </p>
      <FieldError id={errorId} text={error} />
    </div>
  );
}
