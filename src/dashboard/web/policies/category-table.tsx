import { CellNumber } from './cell-number';
import { FieldError } from '../components/field-error';
import { type CategoryInputs, fieldElementId, STANDARD_WEIGHT } from './policy-form-state';
import type { PolicyBounds } from './policy-types';
import { categoryName, rangeWords } from './policy-words';

const differs = (input: string, standard: number) => input.trim() !== '' && Number(input) !== standard;

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
  onChange: (category: string, inputs: CategoryInputs) => void;
}) {
  return (
    <div class="table-scroll">
      <table class="category-table" data-testid="category-table">
        <caption>
          Severity: the score of a high-confidence label of the category ({rangeWords(bounds.bounds.severity)}). Weight:
          the multiplier of indirect exposure to it ({rangeWords(bounds.bounds.weight)}). Severe: any counted hit makes
          the answer HIGH whatever its share.
        </caption>
        <thead>
          <tr>
            <th scope="col">Category</th>
            <th scope="col">Severity</th>
            <th scope="col">Weight</th>
            <th scope="col">Severe</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(categories).map(([category, inputs]) => {
            const standard = bounds.categories[category]?.severity ?? 0;
            const changed =
              differs(inputs.severity, standard) || differs(inputs.weight, STANDARD_WEIGHT) || inputs.severe;
            const field = `categories.${category}`;
            const name = categoryName(category);
            return (
              <tr key={category} class={changed ? 'setting-changed' : undefined} data-category={category}>
                <th scope="row">
                  {name}
                  {changed && <span class="changed-mark"> changed</span>}
                </th>
                <td>
                  <CellNumber
                    field={`${field}.severity`}
                    label={`Severity of ${name}`}
                    value={inputs.severity}
                    range={bounds.bounds.severity}
                    integer
                    standard={standard}
                    error={errors[`${field}.severity`]}
                    onInput={(severity) => onChange(category, { ...inputs, severity })}
                  />
                </td>
                <td>
                  <CellNumber
                    field={`${field}.weight`}
                    label={`Weight of ${name}`}
                    value={inputs.weight}
                    range={bounds.bounds.weight}
                    integer={false}
                    standard={STANDARD_WEIGHT}
                    error={errors[`${field}.weight`]}
                    onInput={(weight) => onChange(category, { ...inputs, weight })}
                  />
                </td>
                <td>
                  <input
                    id={fieldElementId(`${field}.severe`)}
                    type="checkbox"
                    checked={inputs.severe}
                    aria-label={`Severe: ${name}`}
                    aria-invalid={errors[`${field}.severe`] ? 'true' : undefined}
                    aria-describedby={
                      errors[`${field}.severe`] ? `${fieldElementId(`${field}.severe`)}-error` : undefined
                    }
                    onChange={(e) => onChange(category, { ...inputs, severe: (e.target as HTMLInputElement).checked })}
                  />
                  <FieldError id={`${fieldElementId(`${field}.severe`)}-error`} text={errors[`${field}.severe`]} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
