import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * One of the service's real entry points (src/api.ts or src/worker.ts) in a process of its own, so it can be
 * SIGKILLed (the fault suite) or run beside others of its kind (test/helpers/service-cluster.ts).
 */
export interface ServiceProcess {
  name: string;
  pid: number;
  logFile: string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  isRunning(): boolean;
  /** Resident set size in kB from /proc (null once the process is gone). */
  rssKb(): number | null;
  kill(signal: NodeJS.Signals): void;
  /** The last lines of its log, for a failure report. */
  logTail(lines?: number): string;
}

/**
 * Runs `node --import tsx <entry>`: one process, not tsx's CLI wrapper, so the pid is the service's own
 * (a SIGKILL reaches it and /proc reports its memory). Output goes to a log file, not through pipes the
 * driver would have to drain. Detached: its own process group, killed as a whole.
 */
export function spawnService(
  name: string,
  entry: 'src/api.ts' | 'src/worker.ts' | 'bench/faults/test-pki-worker.ts',
  env: Record<string, string>,
  logFile: string,
): ServiceProcess {
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, entry)], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, ...env },
  });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`${name} did not start`);
  const pid = child.pid;
  let running = true;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running = false;
      resolve(code);
    }),
  );
  return {
    name,
    pid,
    logFile,
    exited,
    isRunning: () => running,
    rssKb() {
      try {
        const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        return match ? Number(match[1]) : null;
      } catch {
        return null;
      }
    },
    kill(signal) {
      if (!running) return;
      try {
        process.kill(-pid, signal);
      } catch {
        /* already gone */
      }
    },
    logTail(lines = 15) {
      try {
        return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
      } catch {
        return '(no log)';
      }
    },
  };
}

/** Resolves once `ready()` holds; throws with the log's tail if the process exits first or time runs out. */
export async function waitUntilReady(
  what: string,
  proc: ServiceProcess,
  ready: () => Promise<boolean>,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!proc.isRunning()) throw new Error(`${what} exited during start:\n${proc.logTail()}`);
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} not ready within ${timeoutMs / 1000} s:\n${proc.logTail()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** SIGTERM (the service drains and exits), SIGKILL if it is still there after 20 s. */
export async function stopGracefully(proc: ServiceProcess): Promise<void> {
  if (!proc.isRunning()) return;
  proc.kill('SIGTERM');
  const forced = setTimeout(() => proc.kill('SIGKILL'), 20_000);
  await proc.exited;
  clearTimeout(forced);
}
