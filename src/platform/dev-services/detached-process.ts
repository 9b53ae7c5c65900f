import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';

/** A server the harness can SIGKILL and start again (the fault suite's Temporal), its output in a log file. */
export interface DetachedProcess {
  pid: number;
  logFile: string;
  exited: Promise<void>;
  isRunning(): boolean;
  /** Signals the whole process group: the server and whatever it started. */
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL once `graceMs` passed; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Spawns `command` in a process group of its own, so a kill reaches all of it and our terminal's Ctrl-C does not
 * (the caller stops it in order), with stdout and stderr appended to `logFile` rather than through pipes the
 * caller would have to drain.
 */
export function spawnDetached(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; logFile: string },
): DetachedProcess {
  const fd = openSync(options.logFile, 'a');
  const child = spawn(command, args, { detached: true, stdio: ['ignore', fd, fd], env: options.env });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`${command} did not start (log: ${options.logFile})`);
  const pid = child.pid;
  let running = true;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running = false;
      resolve();
    }),
  );
  const kill = (signal: NodeJS.Signals) => {
    if (!running) return;
    try {
      process.kill(-pid, signal);
    } catch {
      /* already gone */
    }
  };
  return {
    pid,
    logFile: options.logFile,
    exited,
    isRunning: () => running,
    kill,
    async stop(graceMs = 10_000) {
      kill('SIGTERM');
      const timer = setTimeout(() => kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
