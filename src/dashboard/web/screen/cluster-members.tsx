import { shortAddress } from './screen-words';

export const MEMBERS_SHOWN = 20;

/** The cluster's first members (each address whole in its title), then how many more it holds. */
export function ClusterMembers({ members, size, target }: { members: string[]; size: number; target: string }) {
  const shown = members.slice(0, MEMBERS_SHOWN);
  const more = Math.max(0, size - shown.length);
  return (
    <>
      <ul class="cluster-members" data-testid="cluster-members">
        {shown.map((m) => (
          <li key={m}>
            <span class="mono" title={m}>
              {shortAddress(m)}
            </span>
            {m === target && <span class="hint"> (screened)</span>}
          </li>
        ))}
      </ul>
      {more > 0 && (
        <p class="hint" data-testid="cluster-more-members">
          +{more} more
        </p>
      )}
    </>
  );
}
