/**
 * Jest's default order, except that test/zz-final/ runs after everything else: its test reads the whole
 * run's log (test/helpers/run-log.ts). The test files the run selected go to TEST_RUN_FILES, so the final
 * test knows which files should have written lines (tests see the environment of this process). Plain JS:
 * jest loads the sequencer without transforming it.
 */
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const LAST = `${path.sep}zz-final${path.sep}`;

class RunLastSequencer extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    process.env.TEST_RUN_FILES = JSON.stringify(sorted.map((t) => path.relative(process.cwd(), t.path)));
    return [...sorted.filter((t) => !t.path.includes(LAST)), ...sorted.filter((t) => t.path.includes(LAST))];
  }
}

module.exports = RunLastSequencer;
