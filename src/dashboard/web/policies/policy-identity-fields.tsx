import { FieldError } from '../components/field-error';
import { fieldElementId, type PolicyFormState } from './policy-form-state';

const describedBy = (field: string, error: string | undefined, hint?: string) =>
  [hint, error ? `${fieldElementId(field)}-error` : undefined].filter(Boolean).join(' ') || undefined;

/** The policy's id (chosen once, at creation), its name and its description. */
export function PolicyIdentityFields({
  state,
  fixedId,
  idPattern,
  errors,
  onChange,
}: {
  state: PolicyFormState;
  /** The id of the policy being edited; null while creating one. */
  fixedId: string | null;
  idPattern: string;
  errors: Record<string, string>;
  onChange: (change: (s: PolicyFormState) => PolicyFormState) => void;
}) {
  const value = (e: Event) => (e.target as HTMLInputElement | HTMLTextAreaElement).value;
  return (
    <>
      <div class="form-grid">
        {fixedId === null ? (
          <div>
            <label for={fieldElementId('id')}>Id</label>
            <input
              id={fieldElementId('id')}
              type="text"
              class="mono"
              autoComplete="off"
              spellcheck={false}
              maxLength={64}
              pattern={idPattern}
              value={state.id}
              aria-invalid={errors.id ? 'true' : undefined}
              aria-describedby={describedBy('id', errors.id, 'policy-id-hint')}
              onInput={(e) => onChange((s) => ({ ...s, id: value(e) }))}
            />
            <p id="policy-id-hint" class="hint setting-hint">
              What jobs and batches name as <span class="mono">policy_id</span>: letters, digits, '.', '_' or '-'.
            </p>
            <FieldError id={`${fieldElementId('id')}-error`} text={errors.id} />
          </div>
        ) : (
          <div>
            <p class="setting-static">
              Id <span class="mono">{fixedId}</span>
            </p>
          </div>
        )}
        <div>
          <label for={fieldElementId('name')}>Name</label>
          <input
            id={fieldElementId('name')}
            type="text"
            maxLength={100}
            value={state.name}
            aria-invalid={errors.name ? 'true' : undefined}
            aria-describedby={describedBy('name', errors.name, 'policy-name-hint')}
            onInput={(e) => onChange((s) => ({ ...s, name: value(e) }))}
          />
          <p id="policy-name-hint" class="hint setting-hint">
            Shown in answers beside the score; the id when left empty.
          </p>
          <FieldError id={`${fieldElementId('name')}-error`} text={errors.name} />
        </div>
      </div>
      <label for={fieldElementId('description')}>Description (optional)</label>
      <textarea
        id={fieldElementId('description')}
        rows={2}
        maxLength={1000}
        value={state.description}
        aria-invalid={errors.description ? 'true' : undefined}
        aria-describedby={describedBy('description', errors.description)}
        onInput={(e) => onChange((s) => ({ ...s, description: value(e) }))}
      />
      <FieldError id={`${fieldElementId('description')}-error`} text={errors.description} />
    </>
  );
}
