import { FieldError } from '../components/field-error';
import { fieldElementId, UNREADABLE_NUMBER } from './policy-form-state';
import type { Range } from './policy-types';
import { figure, rangeWords } from './policy-words';

/** A number in a table cell: named by a hidden label, described by its standard value, its range and its refusal. */
export function CellNumber({
  field,
  label,
  value,
  range,
  integer,
  standard,
  error,
  onInput,
}: {
  field: string;
  label: string;
  value: string;
  range: Range;
  integer: boolean;
  standard: number;
  error: string | undefined;
  onInput: (value: string) => void;
}) {
  const id = fieldElementId(field);
  return (
    <>
      <label for={id} class="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        type="number"
        class="cell-number"
        inputMode={integer ? 'numeric' : 'decimal'}
        min={range[0]}
        max={range[1]}
        step={integer ? 1 : 'any'}
        value={value === UNREADABLE_NUMBER ? undefined : value}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
        onInput={(e) => {
          const input = e.target as HTMLInputElement;
          onInput(input.validity.badInput ? UNREADABLE_NUMBER : input.value);
        }}
      />
      <span id={`${id}-hint`} class="hint cell-hint">
        standard {figure(standard)}
        <span class="visually-hidden">
          ; {integer ? 'a whole number ' : ''}
          {rangeWords(range)}
        </span>
      </span>
      <FieldError id={`${id}-error`} text={error} />
    </>
  );
}
