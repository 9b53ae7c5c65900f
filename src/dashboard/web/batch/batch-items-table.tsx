import { chainName } from '../screen/screen-words';
import type { BatchItem, PolicyOfBatch } from './batch-types';
import { ITEM_STATUS_WORDS } from './batch-words';
import { ItemScore } from './item-score';

/** One page of a batch's items: target, status, the policy's level and score, the standard model's, the charge. */
export function BatchItemsTable({ items, policy }: { items: BatchItem[]; policy: PolicyOfBatch }) {
  return (
    <div class="table-scroll">
      <table class="wide-table batch-items" data-testid="batch-items">
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Target</th>
            <th scope="col">Reference</th>
            <th scope="col">Status</th>
            <th scope="col">{policy ? `Risk (${policy.name} v${policy.version})` : 'Risk'}</th>
            <th scope="col">Standard model</th>
            <th scope="col">Credits</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.index} data-testid="batch-item" data-index={item.index} data-status={item.status}>
              <td>{item.index + 1}</td>
              <td>
                <span class="mono">{item.target ?? '—'}</span>
                <div class="hint">
                  {[item.api_type, item.chain ? chainName(item.chain) : null].filter(Boolean).join(' · ')}
                </div>
              </td>
              <td class="mono">{item.reference_id ?? '—'}</td>
              <td data-field="status">
                <span class={item.status === 'failed' || item.status === 'refused' ? 'status-error' : undefined}>
                  {ITEM_STATUS_WORDS[item.status]}
                </span>
                {item.error && <div class="hint">{item.error.message}</div>}
              </td>
              <td data-field="risk">
                <ItemScore level={item.risk_level} score={item.risk_score} />
              </td>
              <td data-field="standard">
                <ItemScore level={item.standard_risk_level} score={item.standard_risk_score} />
              </td>
              <td>{item.credits_charged ?? '…'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
