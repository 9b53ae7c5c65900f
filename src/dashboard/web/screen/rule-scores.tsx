import { ruleName } from './screen-words';

/** Each rule's score of an answer, by its name in words and its code. */
export function RuleScores({ scores }: { scores: Record<string, number> }) {
  return (
    <div class="table-scroll">
      <table class="rule-scores" data-testid="rule-scores">
        <thead>
          <tr>
            <th scope="col">Rule</th>
            <th scope="col">Score</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(scores).map(([rule, score]) => (
            <tr key={rule}>
              <td>
                {ruleName(rule)} <span class="hint mono">{rule}</span>
              </td>
              <td>{score}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
