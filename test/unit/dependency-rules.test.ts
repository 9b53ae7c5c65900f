import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The import rules (.dependency-cruiser.js) run over a tree of probe files, each breaking one rule from a
 * feature folder no list names (probe-alpha, probe-beta, probe-gamma): the checker must report exactly the breaks, and
 * nothing for the allowed imports beside them. `npm run lint:deps` runs the same rules over the real tree.
 */
const ROOT = path.resolve(__dirname, '..', '..');

const PROBES: Record<string, string> = {
  'src/probe-alpha/index.ts': "export { secret } from './internals';\n",
  'src/probe-alpha/internals.ts': 'export const secret = 1;\n',
  // Allowed: another feature through its index, and another feature's published workflow ids from a workflow.
  'src/probe-beta/uses-index.ts': "import { secret } from '../probe-alpha';\nexport const a = secret;\n",
  'src/probe-beta/workflows.ts':
    "import { probeId } from '../probe-alpha/workflow-ids';\n" +
    "export async function betaWorkflow() {\n  return probeId('b');\n}\n",
  // Broken: another feature's internals.
  'src/probe-beta/uses-internals.ts': "import { secret } from '../probe-alpha/internals';\nexport const b = secret;\n",
  // Broken: feature code that loads a Temporal entry point (its own workflows or activities) at run time.
  'src/probe-alpha/uses-workflows.ts':
    "import { alphaWorkflow } from './workflows';\nexport const c = alphaWorkflow;\n",
  'src/probe-alpha/runs-its-adapters.ts':
    "import { probeActivity } from './activities';\nexport const d = probeActivity;\n",
  // Broken: a feature that imports an entry point or the composition root.
  'src/probe-beta/uses-entry-point.ts': "import { started } from '../probe-entry';\nexport const e = started;\n",
  'src/probe-entry.ts': 'export const started = true;\n',
  'src/probe-beta/uses-root.ts': "import { features } from '../app/probe-root';\nexport const r = features;\n",
  'src/app/probe-root.ts': 'export const features = [];\n',
  // Broken: the composition root wiring a feature by name (anywhere but its list of modules).
  'src/app/probe-wiring.ts': "import { secret } from '../probe-alpha';\nexport const w = secret;\n",
  // Broken: platform importing a feature (even through its index).
  'src/platform/probe.ts': "import { secret } from '../probe-alpha';\nexport const f = secret;\n",
  // Pure modules: a workflow may import pure modules and activity types; a pure module never reaches pg or an
  // impure module, however many steps away.
  'src/probe-alpha/workflows.ts':
    "import { probeId } from './workflow-ids';\n" +
    "import type { probeActivity } from './activities';\n" +
    "export async function alphaWorkflow(): Promise<string> {\n  return probeId('a');\n}\n" +
    'export type A = typeof probeActivity;\n',
  'src/probe-alpha/workflow-ids.ts':
    "import { g } from './workflow-types';\nexport const probeId = (id: string) => 'probe:' + id + g;\n",
  'src/probe-alpha/workflow-types.ts': "import { shape } from './shapes';\nexport const g = shape;\n",
  'src/probe-alpha/shapes.ts': "export const shape = '';\n",
  'src/screening/pricing.ts': "import { Pool } from 'pg';\nexport const price = () => Pool.length;\n",
  // Broken: a workflow that loads an activity's implementation.
  'src/probe-beta/activities.ts': 'export const betaActivity = () => 2;\n',
  'src/probe-gamma/workflows.ts':
    "import { betaActivity } from '../probe-beta/activities';\n" +
    'export async function gammaWorkflow() {\n  return betaActivity();\n}\n',
  'src/probe-alpha/activities.ts':
    "import { secret } from './internals';\nexport const probeActivity = () => secret;\n",
};

const EXPECTED = [
  'composition-root-names-only-the-module-list: src/app/probe-wiring.ts → src/probe-alpha/index.ts',
  'feature-imports-feature-through-index: src/probe-beta/uses-internals.ts → src/probe-alpha/internals.ts',
  'feature-imports-feature-through-index: src/probe-gamma/workflows.ts → src/probe-beta/activities.ts',
  'features-do-not-import-temporal-entry-points: src/probe-alpha/runs-its-adapters.ts → ' +
    'src/probe-alpha/activities.ts',
  'features-do-not-import-temporal-entry-points: src/probe-alpha/uses-workflows.ts → src/probe-alpha/workflows.ts',
  'nothing-imports-the-composition-root-or-an-entry-point: src/probe-beta/uses-entry-point.ts → src/probe-entry.ts',
  'nothing-imports-the-composition-root-or-an-entry-point: src/probe-beta/uses-root.ts → src/app/probe-root.ts',
  'platform-imports-no-feature: src/platform/probe.ts → src/probe-alpha/index.ts',
  'pure-modules-import-only-pure-modules: src/probe-alpha/workflow-types.ts → src/probe-alpha/shapes.ts',
  'pure-modules-import-only-pure-modules: src/probe-gamma/workflows.ts → src/probe-beta/activities.ts',
  'pure-modules-import-only-pure-modules: src/screening/pricing.ts → pg',
  'workflows-import-activities-as-types: src/probe-gamma/workflows.ts → src/probe-beta/activities.ts',
].sort();

interface Cruise {
  summary: { violations: { rule: { name: string }; from: string; to: string }[] };
}

describe('the dependency rules catch what they must, in folders no list names', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'dependency-rules-'));
    for (const [file, text] of Object.entries(PROBES)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    cpSync(path.join(ROOT, '.dependency-cruiser.js'), path.join(dir, '.dependency-cruiser.js'));
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'commonjs', target: 'es2022', strict: true, esModuleInterop: true },
      }),
    );
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('each probe breaks its rule, and the allowed imports beside them pass', async () => {
    const run = await promisify(execFile)(
      process.execPath,
      [
        path.join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'),
        'src',
        '--config',
        '.dependency-cruiser.js',
        '--output-type',
        'json',
      ],
      { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
    ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    const cruise = JSON.parse(run.stdout) as Cruise;
    // A package resolves through the node_modules link to wherever it lives: name it by the package.
    const named = (to: string) => to.replace(/^.*node_modules\/([^/]+)\/.*$/, '$1');
    const found = cruise.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${named(v.to)}`).sort();
    expect(found).toEqual(EXPECTED);
  });
});
