import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadRiskModel, parseRiskModel, RiskModelError } from '../../src/screening/engine/risk-model';

const root = path.join(__dirname, '..', '..');
const modelFile = () => JSON.parse(readFileSync(path.join(root, 'data', 'risk', 'risk-model.json'), 'utf8'));

/** The docs/screening.md table between the risk-model markers, as {parameter: cell}. */
function documentedTable(): Map<string, string> {
  const doc = readFileSync(path.join(root, 'docs', 'screening.md'), 'utf8');
  const block = /<!-- risk-model:start[^>]*-->([\s\S]*?)<!-- risk-model:end -->/.exec(doc)?.[1];
  if (!block) throw new Error('docs/screening.md has no risk-model table');
  const rows = block.split('\n').filter((l) => l.startsWith('| `'));
  return new Map(
    rows.map((l) => {
      const [, key, value] = /^\| `([^`]+)` \| (.*) \|$/.exec(l)!;
      return [key!, value!.replace(/^`|`$/g, '')];
    }),
  );
}

/** The model as the docs/screening.md table shows it: leaf paths with JSON values, severities grouped by value. */
function tableOf(model: Record<string, unknown>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (prefix: string, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v))
      for (const [k, x] of Object.entries(v)) walk(prefix ? `${prefix}.${k}` : k, x);
    else out.set(prefix, v);
  };
  const {
    description: _d,
    category_severity,
    category_priority,
    ...rest
  } = model as Record<string, unknown> & { category_severity: Record<string, number>; category_priority: string[] };
  walk('', rest);
  const bySeverity = new Map<number, string[]>();
  for (const [c, s] of Object.entries(category_severity)) bySeverity.set(s, [...(bySeverity.get(s) ?? []), c]);
  for (const [s, cs] of bySeverity) out.set(`category_severity = ${s}`, cs);
  out.set('category_priority', category_priority);
  return out;
}

describe('the risk model file', () => {
  test(
    'when the docs/screening.md scoring table is read, then every weight, threshold and bound in it equals ' +
      'data/risk/risk-model.json',
    () => {
      // Arrange
      const expected = tableOf(modelFile());
      // Act
      const shown = documentedTable();
      // Assert: same parameters, same values (lists compared as sets of names where the table lists names)
      expect([...shown.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [key, value] of expected) {
        const cell = shown.get(key)!;
        if (key.startsWith('category_')) expect(cell.split(', ')).toEqual(value);
        else expect(JSON.parse(cell)).toEqual(value);
      }
    },
  );

  test(
    'when the shipped model is loaded, then the engine ' + 'parameters are the file values (levels parsed to bounds)',
    () => {
      // Arrange
      const file = modelFile();
      // Act
      const model = loadRiskModel(path.join(root, 'data', 'risk'));
      // Assert
      expect(model.document).toEqual(file);
      expect(model.levelBounds).toEqual({ MEDIUM: 40, HIGH: 70 });
      expect(model.severity('mixer')).toBe(file.category_severity.mixer);
      expect(model.confidenceMultiplier(null)).toBe(file.confidence_multiplier.low);
    },
  );

  test.each([
    ['levels leave a gap', (m: any) => ({ ...m, levels: { ...m.levels, MEDIUM: '41-69' } }), 'levels'],
    ['a weight is a string', (m: any) => ({ ...m, indirect: { ...m.indirect, cap: '75' } }), 'indirect.cap'],
    [
      'a crawl bound is missing',
      (m: any) => ({ ...m, crawl: { ...m.crawl, max_nodes: undefined } }),
      'crawl.max_nodes',
    ],
    ['an unknown parameter appears', (m: any) => ({ ...m, direct: { ...m.direct, frozen_flor: 85 } }), 'direct'],
  ])('when %s, then loading refuses the model and names the path', (_what, edit, where) => {
    // Arrange
    const broken = edit(modelFile());
    // Act
    const load = () => parseRiskModel(broken, 'risk-model.json');
    // Assert
    expect(load).toThrow(RiskModelError);
    expect(load).toThrow(where);
  });
});
