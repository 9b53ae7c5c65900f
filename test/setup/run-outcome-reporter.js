/**
 * Remembers whether the run passed, for the global teardown's exit (global-teardown.ts). Jest calls reporters'
 * onRunComplete before the global teardown, in the same process, but sets `results.success` only after it, so
 * this applies jest's own rule. Plain JS: jest loads reporters without transforming them.
 */
class RunOutcomeReporter {
  onRunComplete(_contexts, results) {
    globalThis.__chainscreenRunSucceeded =
      results.numFailedTests === 0 &&
      results.numRuntimeErrorTestSuites === 0 &&
      !results.snapshot.failure &&
      !results.runExecError &&
      !results.wasInterrupted;
  }
}

module.exports = RunOutcomeReporter;
