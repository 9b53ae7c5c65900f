import { type Column, DataTable } from '../components/data-table';
import type { InvalidItem } from './batch-types';

/** "items[3].address" → "address": the field of the item, the item itself being named by its row. */
const fieldOf = (parameter: string): string => parameter.replace(/^items\[\d+\]\.?/, '') || 'the whole row';

/** The line of the file column only when this tab uploaded the file (so it knows each item's line). */
const columnsFor = (lines: number[] | undefined): (Column<InvalidItem> | undefined)[] => [
  { header: 'Item', cell: (item) => item.index + 1 },
  lines && { header: 'Line of the file', cell: (item) => lines[item.index] ?? '—' },
  { header: 'Reference', cell: (item) => item.reference_id ?? '—', class: 'mono' },
  { header: 'Field', cell: (item) => fieldOf(item.parameter), class: 'mono' },
  { header: 'Why', cell: (item) => item.message },
];

/**
 * The items the API refused by validation, each with the field at fault and why (nothing was charged for them). When
 * this tab uploaded the file, each is also named by its line in it.
 */
export function InvalidItems({ items, lines }: { items: InvalidItem[]; lines: number[] | undefined }) {
  if (items.length === 0) return null;
  return (
    <div class="invalid-items">
      <h3 id="invalid-items-title">
        {items.length === 1 ? '1 row was' : `${items.length} rows were`} refused and cost nothing
      </h3>
      <DataTable
        testId="invalid-items"
        labelledBy="invalid-items-title"
        columns={columnsFor(lines)}
        rows={items}
        rowKey={(item) => item.index}
        rowAttributes={(item) => ({ 'data-index': item.index })}
      />
    </div>
  );
}
