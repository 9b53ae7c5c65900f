import { CHAINS } from './screen-words';
import { useChainReach } from './use-chain-reach';

/**
 * "Chain": a labelled choice among the chains the engine knows, as one cell of a form grid. A chain this deployment
 * has no endpoint for says so under the choice: its answers rest on the lists and labels only.
 */
export function ChainSelect({ id, value, onChange }: { id: string; value: string; onChange: (chain: string) => void }) {
  const reach = useChainReach().find((chain) => chain.chain === value);
  return (
    <div>
      <label for={id}>Chain</label>
      <select
        id={id}
        value={value}
        aria-describedby={reach ? `${id}-reach` : undefined}
        onChange={(e) => onChange((e.target as HTMLSelectElement).value)}
      >
        {CHAINS.map(([chain, name]) => (
          <option key={chain} value={chain}>
            {name}
          </option>
        ))}
      </select>
      {reach && (
        <p id={`${id}-reach`} class="hint" data-testid="chain-reach">
          {reach.reads === 'on_chain'
            ? `On chain: KYT, exposure${reach.clustering ? ', clusters' : ''} (${reach.historySource})`
            : 'Reference data only on this deployment: lists and labels, no KYT or exposure'}
        </p>
      )}
    </div>
  );
}
