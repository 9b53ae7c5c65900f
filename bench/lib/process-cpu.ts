import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of the processes a figure runs on, read from Linux's /proc, to say what bounds a throughput: on a
 * 2-core machine a second worker only helps while the Temporal server and Postgres leave a core idle.
 */

/** /proc's clock ticks per second: USER_HZ, 100 on every Linux the bench runs on. */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  ppid: number;
  /** utime + stime, and cutime + cstime (children it reaped: a postmaster's exited backends), in seconds. */
  own: number;
  reaped: number;
}

function procStat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) ", comm may hold spaces: fields are counted from the closing parenthesis.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const tick = (i: number) => Number(fields[i]) / TICKS_PER_SECOND;
    return { ppid: Number(fields[1]), own: tick(11) + tick(12), reaped: tick(13) + tick(14) };
  } catch {
    return null;
  }
}

function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

const allPids = (): number[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);

/** The first process whose command line holds `flag` followed by `value` (e.g. `--port 7233`) and every `words`. */
export function findProcess(flag: string, value: string, words: string[] = []): number | null {
  for (const pid of allPids()) {
    const args = cmdline(pid);
    const at = args.indexOf(flag);
    if (at >= 0 && args[at + 1] === value && words.every((w) => args.includes(w))) return pid;
  }
  return null;
}

/** CPU seconds so far of `pid` and, when asked, of its children (alive or reaped): a server and its backends. */
export function cpuSeconds(pid: number, withChildren = false): number {
  const root = procStat(pid);
  if (!root) return 0;
  if (!withChildren) return root.own;
  let total = root.own + root.reaped;
  for (const child of allPids()) {
    const stat = procStat(child);
    if (stat?.ppid === pid) total += stat.own;
  }
  return total;
}

/**
 * CPU seconds every core of the machine spent busy so far (/proc/stat: user, nice, system, irq, softirq, steal):
 * beside the groups, it tells a saturated machine (other processes included) from an idle one.
 */
export function machineBusySeconds(): number {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
}

/** Named groups of processes, each read as cumulative CPU seconds (a group must not change members mid-span). */
export type CpuGroups = Record<string, () => number>;

export const readCpu = (groups: CpuGroups): Record<string, number> =>
  Object.fromEntries(Object.entries(groups).map(([name, seconds]) => [name, seconds()]));

/** Adds each group's CPU seconds between two reads to `into`. */
export function addCpuSpan(into: Record<string, number>, start: Record<string, number>, end: Record<string, number>) {
  for (const [name, s] of Object.entries(end)) into[name] = (into[name] ?? 0) + s - (start[name] ?? 0);
}
