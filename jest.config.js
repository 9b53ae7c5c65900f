/** Jest runs TypeScript through swc (types are checked once by `tsc --noEmit` in `npm test`). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }],
    // jose 6 ships ES modules only, which jest cannot require before Node 24.9: swc makes them CJS.
    '/node_modules/jose/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  // test/zz-final (the grep of the whole run's log for secrets) runs last.
  testSequencer: '<rootDir>/test/setup/run-last-sequencer.js',
  testTimeout: 60_000,
  reporters: ['default', '<rootDir>/test/setup/run-outcome-reporter.js'],
  // No forceExit: its advice would follow the summary. global-teardown.ts exits with the outcome instead.
};
