/**
 * Stops what global-setup.ts started. Jest passes its config; scripts that reuse the setup (schemathesis, bench)
 * call it bare and exit themselves.
 */
export default async function globalTeardown(jestConfig?: unknown): Promise<void> {
  const stop = (globalThis as Record<string, unknown>).__chainscreenStop as (() => Promise<void>) | undefined;
  await stop?.();
  if (jestConfig === undefined) return;
  // The run's log must end with jest's summary, already printed by now. Waiting for the event loop to drain
  // (the Temporal native runtime keeps handles) would add "Jest did not exit one second after..."; jest's
  // forceExit adds advice too. So exit here with jest's outcome, as jest itself does after a bail's teardown.
  const succeeded = (globalThis as Record<string, unknown>).__chainscreenRunSucceeded === true;
  process.exit(succeeded ? 0 : 1);
}
