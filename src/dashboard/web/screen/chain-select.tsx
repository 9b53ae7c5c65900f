import { CHAINS } from './screen-words';

/** "Chain": a labelled choice among the chains the engine knows, as one cell of a form grid. */
export function ChainSelect({ id, value, onChange }: { id: string; value: string; onChange: (chain: string) => void }) {
  return (
    <div>
      <label for={id}>Chain</label>
      <select id={id} value={value} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
        {CHAINS.map(([chain, name]) => (
          <option key={chain} value={chain}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}
