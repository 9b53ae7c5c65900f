import { type Column, DataTable } from '../components/data-table';
import { FieldError } from '../components/field-error';
import { CellNumber } from './cell-number';
import { type CategoryInputs, fieldElementId, STANDARD_WEIGHT } from './policy-form-state';
import type { PolicyBounds } from './policy-types';
import { categoryName, rangeWords } from './policy-words';

const differs = (input: string, standard: number) => input.trim() !== '' && Number(input) !== standard;

/** One category of the form, with what its row shows worked out once. */
interface CategoryRow {
  category: string;
  inputs: CategoryInputs;
  name: string;
  /** The standard model's severity of the category. */
  standard: number;
  /** Differs from the standard (only such rows are sent). */
  changed: boolean;
  /** The form field's prefix: `categories.<category>`. */
  field: string;
}

type Change = (category: string, inputs: CategoryInputs) => void;

function SevereCheckbox({ row, error, onChange }: { row: CategoryRow; error: string | undefined; onChange: Change }) {
  const id = fieldElementId(`${row.field}.severe`);
  return (
    <>
      <input
        id={id}
        type="checkbox"
        checked={row.inputs.severe}
        aria-label={`Severe: ${row.name}`}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(row.category, { ...row.inputs, severe: (e.target as HTMLInputElement).checked })}
      />
      <FieldError id={`${id}-error`} text={error} />
    </>
  );
}

const columnsFor = (bounds: PolicyBounds, errors: Record<string, string>, onChange: Change): Column<CategoryRow>[] => [
  {
    header: 'Category',
    rowHeader: true,
    cell: (row) => (
      <>
        {row.name}
        {row.changed && <span class="changed-mark"> changed</span>}
      </>
    ),
  },
  {
    header: 'Severity',
    cell: (row) => (
      <CellNumber
        field={`${row.field}.severity`}
        label={`Severity of ${row.name}`}
        value={row.inputs.severity}
        range={bounds.bounds.severity}
        integer
        standard={row.standard}
        error={errors[`${row.field}.severity`]}
        onInput={(severity) => onChange(row.category, { ...row.inputs, severity })}
      />
    ),
  },
  {
    header: 'Weight',
    cell: (row) => (
      <CellNumber
        field={`${row.field}.weight`}
        label={`Weight of ${row.name}`}
        value={row.inputs.weight}
        range={bounds.bounds.weight}
        integer={false}
        standard={STANDARD_WEIGHT}
        error={errors[`${row.field}.weight`]}
        onInput={(weight) => onChange(row.category, { ...row.inputs, weight })}
      />
    ),
  },
  {
    header: 'Severe',
    cell: (row) => <SevereCheckbox row={row} error={errors[`${row.field}.severe`]} onChange={onChange} />,
  },
];

/**
 * Every category of the model with its severity, its weight and whether a hit there is severe, each at the policy's
 * value and beside the standard one; rows that differ from the standard are marked (only those are sent).
 */
export function CategoryTable({
  bounds,
  categories,
  errors,
  onChange,
}: {
  bounds: PolicyBounds;
  categories: Record<string, CategoryInputs>;
  errors: Record<string, string>;
  onChange: Change;
}) {
  const rows = Object.entries(categories).map(([category, inputs]): CategoryRow => {
    const standard = bounds.categories[category]?.severity ?? 0;
    return {
      category,
      inputs,
      name: categoryName(category),
      standard,
      changed: differs(inputs.severity, standard) || differs(inputs.weight, STANDARD_WEIGHT) || inputs.severe,
      field: `categories.${category}`,
    };
  });
  return (
    <DataTable
      class="category-table"
      testId="category-table"
      caption={
        <>
          Severity: the score of a high-confidence label of the category ({rangeWords(bounds.bounds.severity)}). Weight:
          the multiplier of indirect exposure to it ({rangeWords(bounds.bounds.weight)}). Severe: any counted hit makes
          the answer HIGH whatever its share.
        </>
      }
      columns={columnsFor(bounds, errors, onChange)}
      rows={rows}
      rowKey={(row) => row.category}
      rowAttributes={(row) => ({ class: row.changed ? 'setting-changed' : undefined, 'data-category': row.category })}
    />
  );
}
