/**
 * Polls `read` until it answers something truthy and returns that, or fails naming `what` after `timeoutMs`: for
 * what the service does after it answers (a workflow's next step, a socket-driven change).
 */
export async function until<T>(
  what: string,
  read: () => Promise<T | null | undefined | false>,
  timeoutMs = 30_000,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
