import type { InvalidItem } from './batch-types';

/** "items[3].address" → "address": the field of the item, the item itself being named by its row. */
const fieldOf = (parameter: string): string => parameter.replace(/^items\[\d+\]\.?/, '') || 'the whole row';

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
      <div class="table-scroll">
        <table data-testid="invalid-items" aria-labelledby="invalid-items-title">
          <thead>
            <tr>
              <th scope="col">Item</th>
              {lines && <th scope="col">Line of the file</th>}
              <th scope="col">Reference</th>
              <th scope="col">Field</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.index} data-index={item.index}>
                <td>{item.index + 1}</td>
                {lines && <td>{lines[item.index] ?? '—'}</td>}
                <td class="mono">{item.reference_id ?? '—'}</td>
                <td class="mono">{fieldOf(item.parameter)}</td>
                <td>{item.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
