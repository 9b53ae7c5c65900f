import { type Column, DataTable } from '../components/data-table';
import { chainName } from '../screen/screen-words';
import type { BatchItem, PolicyOfBatch } from './batch-types';
import { ITEM_STATUS_WORDS } from './batch-words';
import { ItemScore } from './item-score';

const columnsFor = (policy: PolicyOfBatch): Column<BatchItem>[] => [
  { header: 'Item', cell: (item) => item.index + 1 },
  {
    header: 'Target',
    cell: (item) => (
      <>
        <span class="mono">{item.target ?? '—'}</span>
        <div class="hint">{[item.api_type, item.chain ? chainName(item.chain) : null].filter(Boolean).join(' · ')}</div>
      </>
    ),
  },
  { header: 'Reference', cell: (item) => item.reference_id ?? '—', class: 'mono' },
  {
    header: 'Status',
    field: 'status',
    cell: (item) => (
      <>
        <span class={item.status === 'failed' || item.status === 'refused' ? 'status-error' : undefined}>
          {ITEM_STATUS_WORDS[item.status]}
        </span>
        {item.error && <div class="hint">{item.error.message}</div>}
      </>
    ),
  },
  {
    header: policy ? `Risk (${policy.name} v${policy.version})` : 'Risk',
    field: 'risk',
    cell: (item) => <ItemScore level={item.risk_level} score={item.risk_score} />,
  },
  {
    header: 'Standard model',
    field: 'standard',
    cell: (item) => <ItemScore level={item.standard_risk_level} score={item.standard_risk_score} />,
  },
  { header: 'Credits', cell: (item) => item.credits_charged ?? '…' },
];

/** One page of a batch's items: target, status, the policy's level and score, the standard model's, the charge. */
export function BatchItemsTable({ items, policy }: { items: BatchItem[]; policy: PolicyOfBatch }) {
  return (
    <DataTable
      class="wide-table batch-items"
      testId="batch-items"
      columns={columnsFor(policy)}
      rows={items}
      rowKey={(item) => item.index}
      rowAttributes={(item) => ({ 'data-testid': 'batch-item', 'data-index': item.index, 'data-status': item.status })}
    />
  );
}
