import { hrefFor } from '../hash-route';
import { RiskLevel } from '../screen/risk-level';
import { activityTarget, activityTime } from './activity-query';
import type { ActivityItem } from './activity-types';

export const TYPE_WORDS: Record<ActivityItem['activityType'], string> = { kya: 'KYA', kyt: 'KYT', kye: 'KYE' };

export function StatusWords({ item }: { item: Pick<ActivityItem, 'isError' | 'statusCode'> }) {
  if (item.isError) return <span class="status-error">Error{item.statusCode ? ` (HTTP ${item.statusCode})` : ''}</span>;
  return <>OK{item.statusCode && item.statusCode !== 200 ? ` (HTTP ${item.statusCode})` : ''}</>;
}

/** The history as a table; the time opens the record (a plain link, so keyboard and new-tab work). */
export function ActivityTable({ rows }: { rows: ActivityItem[] }) {
  return (
    <div class="table-scroll">
      <table class="activity-table wide-table" data-testid="activity-rows">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Type</th>
            <th scope="col">Chain</th>
            <th scope="col">Target</th>
            <th scope="col">Risk level</th>
            <th scope="col">Score</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((item) => (
            <tr key={item.id} data-id={item.id}>
              <td>
                <a href={hrefFor('activity', item.id)}>{activityTime(item.createdAt)}</a>
              </td>
              <td>{TYPE_WORDS[item.activityType] ?? item.activityType}</td>
              <td>{item.blockchain ?? '—'}</td>
              <td class="mono">{activityTarget(item)}</td>
              <td>
                <RiskLevel level={item.riskLevel} />
              </td>
              <td>{item.riskScore ?? '—'}</td>
              <td>
                <StatusWords item={item} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
