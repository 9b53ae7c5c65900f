import type { ComponentChildren, Key } from 'preact';

/** One column, declared as data: its header, how one row fills its cell, and what the cells carry for CSS and tests. */
export interface Column<Row> {
  header: ComponentChildren;
  cell: (row: Row) => ComponentChildren;
  /** The cell names its row (`<th scope="row">`): screen readers announce it with every other cell of the row. */
  rowHeader?: boolean;
  /** The class of every cell of the column ('mono'), or of one row's cell (a state to colour). */
  class?: string | ((row: Row) => string | undefined);
  /** `data-field` of each cell: what live updates and the browser tests find a cell by. */
  field?: string;
  /** `data-testid` of each cell. */
  testId?: string;
}

/** What a row carries besides its cells: a class and data-* attributes (data-id, data-testid, data-status…). */
export type RowAttributes = { class?: string } & { [name: `data-${string}`]: string | number | undefined };

export interface DataTableProps<Row> {
  /** `false` leaves out a column shown only sometimes (`lines && {…}`). */
  columns: readonly (Column<Row> | false | null | undefined)[];
  rows: readonly Row[];
  /** Preact's key of a row: its id, or its place for rows that have none (a graph's transfers). */
  rowKey: (row: Row, index: number) => Key;
  rowAttributes?: (row: Row) => RowAttributes;
  /** The row the page shows in full elsewhere: marked `aria-current` (and highlighted by the stylesheet). */
  isSelected?: (row: Row) => boolean;
  /** Said instead of the table when there are no rows; without it an empty table is drawn (its caller decides). */
  empty?: ComponentChildren;
  emptyTestId?: string;
  class?: string;
  testId?: string;
  caption?: ComponentChildren;
  labelledBy?: string;
}

const cellClass = <Row,>(column: Column<Row>, row: Row): string | undefined =>
  typeof column.class === 'function' ? column.class(row) : column.class;

/**
 * The dashboard's one table: a header row of column headers, one row per item, inside the box that scrolls sideways
 * on a phone (so the page itself never does).
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  rowAttributes,
  isSelected,
  empty,
  emptyTestId,
  class: className,
  testId,
  caption,
  labelledBy,
}: DataTableProps<Row>) {
  if (rows.length === 0 && empty !== undefined)
    return (
      <p class="hint" data-testid={emptyTestId}>
        {empty}
      </p>
    );
  const shown = columns.filter((c): c is Column<Row> => Boolean(c));
  return (
    <div class="table-scroll">
      <table class={className} data-testid={testId} aria-labelledby={labelledBy}>
        {caption !== undefined && <caption>{caption}</caption>}
        <thead>
          <tr>
            {shown.map((column, i) => (
              <th key={i} scope="col">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr
              key={rowKey(row, index)}
              {...rowAttributes?.(row)}
              aria-current={isSelected?.(row) ? 'true' : undefined}
            >
              {shown.map((column, i) => {
                const Cell = column.rowHeader ? 'th' : 'td';
                return (
                  <Cell
                    key={i}
                    scope={column.rowHeader ? 'row' : undefined}
                    class={cellClass(column, row)}
                    data-field={column.field}
                    data-testid={column.testId}
                  >
                    {column.cell(row)}
                  </Cell>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
