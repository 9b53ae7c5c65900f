import { useState } from 'preact/hooks';
import { CHAINS } from '../screen/screen-words';
import { NO_FILTERS, type HistoryFilters } from './history-filters';

/** datetime-local speaks the browser's local time without a zone; the API wants an instant. */
const toInstant = (local: string): string => (local ? new Date(local).toISOString() : '');
const toLocal = (iso: string): string => {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

type Draft = Omit<HistoryFilters, 'from' | 'to'> & { fromLocal: string; toLocal: string };

function problemWith(draft: Draft): string | null {
  if (draft.q.trim().length === 1) return 'Search needs at least 2 characters.';
  if (draft.fromLocal && draft.toLocal && Date.parse(draft.fromLocal) >= Date.parse(draft.toLocal))
    return '“Until” must be later than “From”.';
  return null;
}

/** Every filter of GET /api/v1/activity; applied together with one button, cleared with another. */
export function HistoryFiltersForm({
  filters,
  onApply,
}: {
  filters: HistoryFilters;
  onApply: (filters: HistoryFilters) => void;
}) {
  const [draft, setDraft] = useState<Draft>({
    ...filters,
    fromLocal: toLocal(filters.from),
    toLocal: toLocal(filters.to),
  });
  const [problem, setProblem] = useState<string | null>(null);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const text = (e: Event) => (e.target as HTMLInputElement | HTMLSelectElement).value;

  const apply = (event: Event) => {
    event.preventDefault();
    const found = problemWith(draft);
    setProblem(found);
    if (found) return;
    const { fromLocal, toLocal: until, ...rest } = draft;
    onApply({
      ...rest,
      q: rest.q.trim(),
      blockchain: rest.blockchain.trim(),
      from: toInstant(fromLocal),
      to: toInstant(until),
    });
  };
  const clear = () => {
    setDraft({ ...NO_FILTERS, limit: draft.limit, fromLocal: '', toLocal: '' });
    setProblem(null);
    onApply({ ...NO_FILTERS, limit: draft.limit });
  };

  return (
    <form class="filters" onSubmit={apply} aria-label="Filter the history" noValidate>
      <div class="form-grid">
        <div>
          <label for="filter-type">Type</label>
          <select
            id="filter-type"
            value={draft.activityType}
            onChange={(e) => set('activityType', text(e) as Draft['activityType'])}
          >
            <option value="">Any type</option>
            <option value="kya">KYA (address)</option>
            <option value="kyt">KYT (transaction)</option>
            <option value="kye">KYE (entity)</option>
          </select>
        </div>
        <div>
          <label for="filter-risk">Risk level</label>
          <select
            id="filter-risk"
            value={draft.riskLevel}
            onChange={(e) => set('riskLevel', text(e) as Draft['riskLevel'])}
          >
            <option value="">Any level</option>
            <option value="low">Low</option>
            <option value="medium">Medium</option>
            <option value="high">High</option>
            <option value="critical">Critical</option>
          </select>
        </div>
        <div>
          <label for="filter-chain">Chain</label>
          <input
            id="filter-chain"
            type="text"
            list="filter-chains"
            placeholder="Any chain"
            value={draft.blockchain}
            onInput={(e) => set('blockchain', text(e))}
          />
          <datalist id="filter-chains">
            {CHAINS.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </datalist>
        </div>
        <div>
          <label for="filter-q">Search</label>
          <input
            id="filter-q"
            type="search"
            placeholder="Address, hash, entity name or id"
            value={draft.q}
            onInput={(e) => set('q', text(e))}
          />
        </div>
        <div>
          <label for="filter-from">From (your local time)</label>
          <input
            id="filter-from"
            type="datetime-local"
            value={draft.fromLocal}
            onInput={(e) => set('fromLocal', text(e))}
          />
        </div>
        <div>
          <label for="filter-to">Until (not included)</label>
          <input id="filter-to" type="datetime-local" value={draft.toLocal} onInput={(e) => set('toLocal', text(e))} />
        </div>
        <div>
          <label for="filter-limit">Rows per page</label>
          <select id="filter-limit" value={String(draft.limit)} onChange={(e) => set('limit', Number(text(e)))}>
            {[10, 20, 50, 100].map((n) => (
              <option key={n} value={String(n)}>
                {n}
              </option>
            ))}
          </select>
        </div>
        <label class="check">
          <input
            type="checkbox"
            checked={draft.errorsOnly}
            onChange={(e) => set('errorsOnly', (e.target as HTMLInputElement).checked)}
          />{' '}
          Errors only
        </label>
      </div>
      {problem && (
        <p class="notice notice-error" role="alert">
          {problem}
        </p>
      )}
      <div class="form-actions">
        <button type="submit">Apply filters</button>
        <button type="button" class="secondary" onClick={clear}>
          Clear filters
        </button>
      </div>
    </form>
  );
}
