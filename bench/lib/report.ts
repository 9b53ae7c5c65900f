/**
 * One row of the benchmark table: a figure measured on the service beside the baseline measured in
 * the same run on the same stack, so the ratio survives a slower or busier machine better than either.
 */
export interface Figure {
  id: string;
  /** What is measured, and against what (the baseline's description goes here so the table reads alone). */
  figure: string;
  value: number;
  baseline: number;
  unit: string;
  /** Extra facts of the row that are not ratios (counts, correctness checks). */
  note?: string;
}

const ratioOf = (f: Figure): number => f.value / f.baseline;

function format(n: number): string {
  if (!Number.isFinite(n)) return 'n/a';
  const abs = Math.abs(n);
  return abs >= 100 ? n.toFixed(0) : abs >= 10 ? n.toFixed(1) : n.toFixed(2);
}

/** The markdown table docs/benchmarks.md quotes: `| id | figure | value | baseline | ratio |`. */
export function markdownTable(figures: Figure[]): string {
  const rows = figures.map((f) => {
    const note = f.note ? ` (${f.note})` : '';
    return (
      `| ${f.id} | ${f.figure}${note} | ${format(f.value)} ${f.unit} | ${format(f.baseline)} ${f.unit} ` +
      `| ${format(ratioOf(f))} |`
    );
  });
  return ['| id | figure | value | baseline | ratio |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** The same rows on one line for machines (prefixed so it can be grepped out of the log). */
export function jsonLine(figures: Figure[], context: Record<string, unknown>): string {
  const rows = figures.map((f) => ({
    ...f,
    value: round(f.value),
    baseline: round(f.baseline),
    ratio: round(ratioOf(f)),
  }));
  return `BENCH_JSON ${JSON.stringify({ ...context, figures: rows })}`;
}

const round = (n: number): number | null => (Number.isFinite(n) ? Math.round(n * 1000) / 1000 : null);
