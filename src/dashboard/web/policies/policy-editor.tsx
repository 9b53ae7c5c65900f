import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api-client';
import { ErrorNotice } from '../components/error-notice';
import { useSession } from '../context';
import { CategoryTable } from './category-table';
import { FieldError } from '../components/field-error';
import { NumberSetting } from './number-setting';
import { DEFAULT_POLICY_PATH, POLICY_ID_PATTERN, policyPath, RESERVED_POLICY_IDS } from './policy-api';
import {
  changedSettings,
  fieldElementId,
  fieldOfParameter,
  initialFormState,
  policyBody,
  type PolicyFormState,
} from './policy-form-state';
import { PolicyIdentityFields } from './policy-identity-fields';
import type { PolicyBounds, PolicyView } from './policy-types';
import { figure } from './policy-words';

/** A refusal the editor shows next to one field (its element id derives from `field`). */
interface FieldProblem {
  field: string;
  text: string;
}

const sentence = (text: string): string => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/** The id a new policy may not take, in words; null when it may be sent (the API checks its spelling). */
function idProblem(id: string, existingIds: string[]): string | null {
  if (!id) return "Enter an id for the policy: letters, digits, '.', '_' or '-', at most 64 characters.";
  if (RESERVED_POLICY_IDS.includes(id.toLowerCase()))
    return `“${id}” is kept by the API (${RESERVED_POLICY_IDS.join(', ')}): choose another id.`;
  if (existingIds.includes(id)) return `You already have a policy “${id}”: edit it from the list instead.`;
  return null;
}

/**
 * Creates a policy (policy null) or makes a new version of one. Every setting is shown at its value with the standard
 * one and the allowed range; the API is the one validator: its 400 is shown next to the field it names, which takes
 * the focus. Only settings that differ from the standard model are sent.
 */
export function PolicyEditor({
  bounds,
  policy,
  existingIds,
  onSaved,
}: {
  bounds: PolicyBounds;
  policy: PolicyView | null;
  existingIds: string[];
  onSaved: (saved: PolicyView, before: PolicyView | null) => void;
}) {
  const { api } = useSession();
  const [state, setState] = useState<PolicyFormState>(() => initialFormState(bounds, policy));
  const [problem, setProblem] = useState<FieldProblem | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);

  // The field the API refused takes the focus, so its message is read with it.
  useEffect(() => {
    if (problem) document.getElementById(fieldElementId(problem.field))?.focus();
  }, [problem]);

  const edit = (change: (s: PolicyFormState) => PolicyFormState) => {
    setState(change);
    setProblem(null);
    setError(null);
  };
  const errors: Record<string, string> = problem ? { [problem.field]: problem.text } : {};
  const body = policyBody(state, bounds);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (inFlight.current) return;
    const id = policy?.id ?? state.id.trim();
    const badId = policy ? null : idProblem(id, existingIds);
    setError(null);
    if (badId) return setProblem({ field: 'id', text: badId });
    setProblem(null);
    inFlight.current = true;
    setBusy(true);
    try {
      const answer = await api.put<{ data: PolicyView }>(policyPath(id), body);
      let saved = answer.data;
      // Unticking "default" on the default policy gives the account the standard model again.
      if (policy?.default && !state.makeDefault && saved.default) {
        await api.delete(DEFAULT_POLICY_PATH);
        saved = { ...saved, default: false };
      }
      onSaved(saved, policy);
    } catch (err) {
      const field = err instanceof ApiError && err.parameter ? fieldOfParameter(err.parameter.parameter, state) : null;
      if (field && err instanceof ApiError && err.parameter)
        setProblem({ field, text: sentence(err.parameter.message) });
      else setError(err);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  const b = bounds.bounds;
  const changed = changedSettings(body);
  return (
    <form onSubmit={submit} aria-labelledby="policy-editor-title" class="policy-editor" noValidate>
      <PolicyIdentityFields
        state={state}
        fixedId={policy?.id ?? null}
        idPattern={POLICY_ID_PATTERN.source}
        errors={errors}
        onChange={edit}
      />
      <h3>Risk levels</h3>
      <p class="hint">A score from the MEDIUM cut-off is MEDIUM, from the HIGH cut-off HIGH; below both, LOW.</p>
      <div class="form-grid">
        <NumberSetting
          field="levels.MEDIUM"
          label="MEDIUM from score"
          value={state.levels.MEDIUM}
          range={b.level_cutoff}
          integer
          standardWords={`Standard ${bounds.levels.MEDIUM}`}
          error={errors['levels.MEDIUM']}
          onInput={(MEDIUM) => edit((s) => ({ ...s, levels: { ...s.levels, MEDIUM } }))}
        />
        <NumberSetting
          field="levels.HIGH"
          label="HIGH from score"
          value={state.levels.HIGH}
          range={b.level_cutoff}
          integer
          standardWords={`Standard ${bounds.levels.HIGH}`}
          error={errors['levels.HIGH']}
          onInput={(HIGH) => edit((s) => ({ ...s, levels: { ...s.levels, HIGH } }))}
        />
      </div>
      <h3>Indirect exposure</h3>
      <p class="hint">
        Which hits found by the crawl count: a hit reached through other addresses counts when it carries at least this
        share of the flow and this amount, within this many hops.
      </p>
      <div class="form-grid">
        <NumberSetting
          field="indirect.min_share"
          label="Least share of the flow (0.05 = 5 %)"
          value={state.indirect.min_share}
          range={b.min_share}
          integer={false}
          standardWords={`Standard ${figure(bounds.indirect.min_share)}`}
          error={errors['indirect.min_share']}
          onInput={(min_share) => edit((s) => ({ ...s, indirect: { ...s.indirect, min_share } }))}
        />
        <NumberSetting
          field="indirect.min_usd"
          label="Least amount in USD"
          value={state.indirect.min_usd}
          range={b.min_usd}
          integer={false}
          standardWords={`Standard ${figure(bounds.indirect.min_usd)}`}
          error={errors['indirect.min_usd']}
          onInput={(min_usd) => edit((s) => ({ ...s, indirect: { ...s.indirect, min_usd } }))}
        />
        <NumberSetting
          field="indirect.max_hops"
          label="Farthest hop (empty: no limit)"
          value={state.indirect.max_hops}
          range={b.max_hops}
          integer
          standardWords={
            bounds.indirect.max_hops === null ? 'Standard: no limit' : `Standard ${bounds.indirect.max_hops}`
          }
          error={errors['indirect.max_hops']}
          onInput={(max_hops) => edit((s) => ({ ...s, indirect: { ...s.indirect, max_hops } }))}
        />
      </div>
      <h3>Categories</h3>
      <CategoryTable
        bounds={bounds}
        categories={state.categories}
        errors={errors}
        onChange={(category, inputs) => edit((s) => ({ ...s, categories: { ...s.categories, [category]: inputs } }))}
      />
      <label class="check">
        <input
          type="checkbox"
          id={fieldElementId('default')}
          aria-describedby={errors.default ? `${fieldElementId('default')}-error` : undefined}
          checked={state.makeDefault}
          onChange={(e) => edit((s) => ({ ...s, makeDefault: (e.target as HTMLInputElement).checked }))}
        />{' '}
        Make this the account's default policy (jobs, batches and monitors that name no policy use it)
      </label>
      <FieldError id={`${fieldElementId('default')}-error`} text={errors.default} />
      <p class="hint" data-testid="policy-changes">
        {changed === 0
          ? 'Every setting is at its standard value.'
          : `${changed} setting${changed === 1 ? '' : 's'} differ${changed === 1 ? 's' : ''} from the standard model: ` +
            'only those are saved.'}{' '}
        {policy ? 'Saving makes a new version; answers scored earlier keep theirs.' : 'Saving makes version 1.'}
      </p>
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : policy ? 'Save as a new version' : 'Create policy'}
        </button>
        <button
          type="button"
          class="secondary"
          disabled={busy}
          onClick={() =>
            edit((s) => ({
              ...initialFormState(bounds, null),
              id: s.id,
              name: s.name,
              description: s.description,
              makeDefault: s.makeDefault,
            }))
          }
        >
          Reset every setting to the standard
        </button>
      </div>
      <ErrorNotice error={error} />
    </form>
  );
}
