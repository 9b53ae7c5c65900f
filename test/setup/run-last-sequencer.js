/**
 * Jest's default order, except that test/zz-final/ runs after everything else: its test reads the whole
 * run's log (test/helpers/run-log.ts). The list of test files the run selected is written beside that
 * log, so the final test knows which files should have written lines. Plain JS: jest loads the sequencer
 * without transforming it.
 */
const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const LAST = `${path.sep}zz-final${path.sep}`;

class RunLastSequencer extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    const dir = path.resolve(__dirname, '..', '..', 'test-artifacts', 'logs');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'test-run-files.json'), JSON.stringify(sorted.map((t) => path.relative(process.cwd(), t.path)), null, 1));
    return [...sorted.filter((t) => !t.path.includes(LAST)), ...sorted.filter((t) => t.path.includes(LAST))];
  }
}

module.exports = RunLastSequencer;
