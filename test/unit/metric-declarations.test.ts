import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FEATURES } from '../../src/app/features';

/**
 * Every metric a feature defines is declared by its module, every declared one is defined there, and the operators'
 * table in docs/operations.md lists each metric of the features and of the platform.
 */
const SRC = path.resolve(__dirname, '..', '..', 'src');
const TABLE = readFileSync(path.resolve(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8');

function definedIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'web' ? [] : definedIn(full);
    if (!entry.name.endsWith('.ts')) return [];
    return [...readFileSync(full, 'utf8').matchAll(/name: '(chainscreen_[a-z_]+)'/g)].map((m) => m[1] as string);
  });
}

/** The table names a metric without its prefix, `jobs_completed_total` / `jobs_failed_total` sharing a row. */
const documented = (name: string) => TABLE.includes(`\`${name.replace(/^chainscreen_/, '')}\``);

describe('metrics', () => {
  test.each(FEATURES.map((feature) => [feature.name, feature] as const))(
    'when %s defines metrics, then its module declares exactly those, and the operators’ table lists them',
    (name, feature) => {
      const defined = definedIn(path.join(SRC, name)).sort();
      expect([...(feature.metrics ?? [])].sort()).toEqual(defined);
      expect(defined.filter((metric) => !documented(metric))).toEqual([]);
    },
  );

  test('when the platform defines metrics, then the operators’ table lists them', () => {
    const defined = definedIn(path.join(SRC, 'platform'));
    expect(defined.length).toBeGreaterThan(3);
    expect(defined.filter((metric) => !documented(metric))).toEqual([]);
  });
});
