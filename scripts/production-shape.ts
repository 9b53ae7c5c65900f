/**
 * `npm run test:production-shape`: the production shape, run here. Builds the Temporal server and its SQL tool from
 * their Go module when they are missing, then on that server (TEMPORAL_SHAPE=production: the run's embedded Postgres
 * holds its persistence and visibility, more than one history shard; test/helpers/temporal-shape.ts) runs the
 * multi-process test (two api and two worker processes) beside the test that docker-compose.yml runs the same
 * Temporal, then the fault suite's short form. Every step runs even when one before it failed; it prints each
 * step's time and the total, and exits 1 when any failed. Not part of .ci/run (docs/testing.md says why and when
 * to run it).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { resolveTemporalServer } from '../src/platform/dev-services/temporal-server-build';
import { createLogger } from '../src/platform/logging/logger';

const ROOT = path.resolve(__dirname, '..');
const env = { ...process.env, TEMPORAL_SHAPE: 'production' };

interface Step {
  name: string;
  run(): boolean;
}

/** A command of the tree run with our terminal, on the production shape. */
const command = (args: string[]) => () =>
  spawnSync(process.execPath, args, { cwd: ROOT, env, stdio: 'inherit' }).status === 0;

const STEPS: Step[] = [
  {
    name: 'Temporal server build (skipped when cached)',
    run: () => Boolean(resolveTemporalServer(createLogger('info'))),
  },
  {
    name: 'jest: multi-process + docker-compose',
    run: command([
      'node_modules/jest/bin/jest.js',
      '--runInBand',
      'test/integration/multi-process.test.ts',
      'test/unit/docker-compose.test.ts',
    ]),
  },
  { name: 'fault suite, short form', run: command(['--import', 'tsx', 'bench/faults/run.ts', '--short']) },
];

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function main(): void {
  const started = Date.now();
  const results = STEPS.map((step) => {
    const stepStarted = Date.now();
    let ok: boolean;
    try {
      ok = step.run();
    } catch (err) {
      console.error(err);
      ok = false;
    }
    return { name: step.name, ok, ms: Date.now() - stepStarted };
  });
  console.log('\nproduction shape:');
  for (const r of results) console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.name}: ${seconds(r.ms)}`);
  const failed = results.filter((r) => !r.ok).length;
  console.log(`${failed ? `${failed} step(s) failed` : 'all steps passed'} in ${seconds(Date.now() - started)}`);
  process.exit(failed ? 1 : 0);
}

main();
