/**
 * The inner loop: `npm run test:unit` runs the pure tests (test/unit) without the global set-up, so no
 * Postgres, no Temporal and no bundle; two workers, because nothing here shares a server. `npm test` runs
 * these too, with everything else.
 */
const base = require('./jest.config.js');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/unit'],
  globalSetup: undefined,
  globalTeardown: undefined,
  testSequencer: undefined,
  reporters: ['default'],
  maxWorkers: 2,
};
