import { type Column, DataTable } from '../components/data-table';
import { ruleName } from './screen-words';

type RuleScore = [rule: string, score: number];

const COLUMNS: Column<RuleScore>[] = [
  {
    header: 'Rule',
    cell: ([rule]) => (
      <>
        {ruleName(rule)} <span class="hint mono">{rule}</span>
      </>
    ),
  },
  { header: 'Score', cell: ([, score]) => score },
];

/** Each rule's score of an answer, by its name in words and its code. */
export function RuleScores({ scores }: { scores: Record<string, number> }) {
  return (
    <DataTable
      class="rule-scores"
      testId="rule-scores"
      columns={COLUMNS}
      rows={Object.entries(scores)}
      rowKey={([rule]) => rule}
    />
  );
}
