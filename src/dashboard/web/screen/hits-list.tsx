import type { Hit } from './job-types';
import { ruleName, usd } from './screen-words';
import { ViaClusterNote } from './via-cluster-note';

/** The same finding can come back more than once (one per list entry naming the address); show it once. */
export function distinctHits(hits: Hit[]): Hit[] {
  const seen = new Set<string>();
  return hits.filter((h) => {
    const key = JSON.stringify(h);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function HitPath({ hit }: { hit: Hit }) {
  if (!hit.path || hit.path.length < 2) return <span>on the screened party itself</span>;
  const hops = hit.path.length - 1;
  return (
    <ol
      class="hit-path"
      aria-label={`Path over ${hops} hop${hops === 1 ? '' : 's'}, from the screened party to the listed address`}
    >
      {hit.path.map((address, i) => (
        <li key={i} class="mono">
          {address}
        </li>
      ))}
    </ol>
  );
}

function flowWords(hit: Hit): string {
  const direction = hit.direction === 'in' ? 'funds came from it' : hit.direction === 'out' ? 'funds went to it' : '';
  const value = typeof hit.usd === 'number' ? usd(hit.usd) : '';
  const share = typeof hit.share === 'number' ? `${Math.round(hit.share * 100)} % of the flow` : '';
  return [direction, value, share].filter(Boolean).join(', ');
}

/**
 * Every finding as a card (readable at phone width): the rule and its score, the listed address, its
 * role, hop and source, and the path of addresses from the target to it.
 */
export function HitsList({ hits }: { hits: Hit[] }) {
  const shown = distinctHits(hits);
  if (shown.length === 0) return <p class="hint">No listed address was found on the target or along its transfers.</p>;
  return (
    <ol class="hits" data-testid="hits">
      {shown.map((hit, i) => (
        <li key={i} class="hit">
          <p class="hit-title">
            <strong>{ruleName(hit.rule)}</strong>
            <span class="hit-score">
              score <strong data-field="score">{hit.score}</strong>
            </span>
          </p>
          {hit.via_cluster && <ViaClusterNote via={hit.via_cluster} />}
          {hit.detail && <p class="hit-detail">{hit.detail}</p>}
          <dl class="hit-facts">
            <dt>Listed address</dt>
            <dd class="mono" data-field="address">
              {hit.address}
            </dd>
            {hit.category && (
              <>
                <dt>Category</dt>
                <dd data-field="category">{hit.category.replace(/_/g, ' ')}</dd>
              </>
            )}
            <dt>Role</dt>
            <dd data-field="role">
              {hit.role}
              {flowWords(hit) && <span class="hint"> ({flowWords(hit)})</span>}
            </dd>
            <dt>Hop</dt>
            <dd data-field="hop">{hit.hop}</dd>
            <dt>Source</dt>
            <dd data-field="source">{hit.source}</dd>
            <dt>Path</dt>
            <dd data-field="path">
              <HitPath hit={hit} />
            </dd>
          </dl>
        </li>
      ))}
    </ol>
  );
}
