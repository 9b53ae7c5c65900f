import type { Client } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import type { Pool, QueryConfig } from 'pg';

/** One dependency's answer to a readiness probe. */
export interface CheckResult {
  ok: boolean;
  latencyMs: number;
  /** Why it failed (short, no connection strings); absent when ok. */
  error?: string;
  /** What was seen, when that helps an operator (e.g. how many pollers). */
  detail?: string;
}

/** Resolves with an optional detail when the dependency answers; throws (or rejects) when it does not. */
// biome-ignore lint/suspicious/noConfusingVoidType: a check that has nothing to report simply returns.
export type Check = () => Promise<string | void>;

export interface Readiness {
  ready: boolean;
  checks: Record<string, CheckResult>;
}

/** A probe answers in about this time even when a dependency hangs (a paused Postgres, a partitioned frontend). */
export const CHECK_TIMEOUT_MS = 2_000;

/**
 * A worker polls with long polls of about a minute and Temporal lists a poller for minutes after it
 * stopped, so a poller counts only if it was seen within this window.
 */
export const POLLER_WINDOW_MS = 90_000;

function describe(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

async function runCheck(check: Check, timeoutMs: number): Promise<CheckResult> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const detail = await Promise.race([check(), timeout]);
    return { ok: true, latencyMs: Date.now() - started, ...(detail ? { detail } : {}) };
  } catch (err) {
    return { ok: false, latencyMs: Date.now() - started, error: describe(err) };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every check at once, each bounded by `timeoutMs`; ready only when all pass. */
export async function runChecks(checks: Record<string, Check>, timeoutMs = CHECK_TIMEOUT_MS): Promise<Readiness> {
  const names = Object.keys(checks);
  const results = await Promise.all(names.map((name) => runCheck(checks[name] as Check, timeoutMs)));
  return {
    ready: results.every((r) => r.ok),
    checks: Object.fromEntries(names.map((name, i) => [name, results[i] as CheckResult])),
  };
}

/**
 * Postgres answers `SELECT 1` on the serving pool. The query carries its own timeout so a hung server
 * frees the connection after the probe gives up, not after the pool's statement timeout.
 */
export function postgresAnswers(pool: Pool, timeoutMs = CHECK_TIMEOUT_MS): Check {
  return async () => {
    // pg reads a per-query query_timeout (Client#query) though its typings only declare it per client.
    const query: QueryConfig & { query_timeout: number } = { text: 'SELECT 1', query_timeout: timeoutMs };
    await pool.query(query);
  };
}

/** The Temporal frontend answers a cheap call (GetSystemInfo) within the deadline. */
export function temporalAnswers(client: Client, timeoutMs = CHECK_TIMEOUT_MS): Check {
  return async () => {
    await client.withDeadline(Date.now() + timeoutMs, () => client.workflowService.getSystemInfo({}));
  };
}

// temporal.api.enums.v1 values, written out so this module needs no import of the generated protos.
const TASK_QUEUE_KIND_NORMAL = 1;
const TASK_QUEUE_TYPE_WORKFLOW = 1;

/**
 * At least one worker polled the workflow task queue within POLLER_WINDOW_MS (DescribeTaskQueue's
 * pollers): without one, submitted jobs would wait in `queued` however healthy the api is.
 */
export function workerPolls(
  client: Client,
  taskQueue: string,
  options: { timeoutMs?: number; windowMs?: number; now?: () => number } = {},
): Check {
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  const windowMs = options.windowMs ?? POLLER_WINDOW_MS;
  const now = options.now ?? Date.now;
  return async () => {
    const answer = await client.withDeadline(Date.now() + timeoutMs, () =>
      client.workflowService.describeTaskQueue({
        namespace: client.options.namespace,
        taskQueue: { name: taskQueue, kind: TASK_QUEUE_KIND_NORMAL },
        taskQueueType: TASK_QUEUE_TYPE_WORKFLOW,
      }),
    );
    const recent = (answer.pollers ?? []).filter(
      (p) => p.lastAccessTime && now() - tsToMs(p.lastAccessTime) <= windowMs,
    );
    if (recent.length === 0)
      throw new Error(`no worker polled task queue ${taskQueue} in the last ${Math.round(windowMs / 1000)} s`);
    return `${recent.length} poller(s) on task queue ${taskQueue}`;
  };
}
