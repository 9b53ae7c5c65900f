import { createHash, randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import type { MonitorSummary } from '../../src/monitors/monitor-summary';
import { monitorWorkflowId } from '../../src/monitors/workflow-ids';
import type { MonitorWorkflowInput } from '../../src/monitors/workflow-types';
import { ChainAttr, UserIdAttr } from '../../src/platform/temporal/search-attributes';
import { tronHexToBase58 } from '../../src/screening/chains/tron-address';
import { inFlight } from '../lib/stats';

/**
 * P9's monitors, made cheaply: rows inserted in bulk (with a stored baseline, as if each had been screened once)
 * and their workflows started by the client as the monitors route starts them, without the baseline screening.
 */

export interface Target {
  chain: string;
  address: string;
}

export interface MonitorFleet {
  ids: string[];
  chains: string[];
  touched: { id: string; chain: string; address: string }[];
}

/** What a clean address's first screening stores: a listed one re-screened against it is `now sanctioned`. */
const CLEAN_BASELINE: MonitorSummary = { risk_level: 'LOW', risk_score: 0, sanctioned: false, hits: [] };
const EVERY_HOURS = 24;
/** Client calls in flight while starting or terminating the workflows (the dev server shares the 2 cores). */
const CLIENT_CONCURRENCY = 32;
const TASK_QUEUE_KIND_NORMAL = 1;
const TASK_QUEUE_TYPE_WORKFLOW = 1;

/**
 * Addresses of the active list on chains the bench stack screens reference-data-only (no node configured), so a
 * re-screen costs no chain calls.
 */
export async function listedTargets(pool: Pool, count: number): Promise<Target[]> {
  const { rows } = await pool.query<Target>(
    `SELECT DISTINCT chain, address FROM sanction_entries
     WHERE delisted_version IS NULL AND chain IN ('bitcoin', 'tron') ORDER BY chain, address LIMIT $1`,
    [count],
  );
  if (rows.length < count) throw new Error(`only ${rows.length} listed bitcoin/tron addresses for ${count} monitors`);
  return rows;
}

/** A valid-looking TRON address (base58check of 0x41 + 20 bytes) no list holds: derived from `index`. */
const madeUpTron = (index: number): string =>
  tronHexToBase58(
    createHash('sha256').update(`chainscreen bench P9 ${index}`).digest().subarray(0, 20).toString('hex'),
  )!;

/** `total` monitors of `userId`: one per listed target, the rest on made-up addresses; each watching its address. */
export async function insertMonitors(
  pool: Pool,
  userId: string,
  listed: Target[],
  total: number,
): Promise<MonitorFleet> {
  const targets = [
    ...listed,
    ...Array.from({ length: total - listed.length }, (_, i) => ({ chain: 'tron', address: madeUpTron(i) })),
  ];
  const unlisted = targets.slice(listed.length).map((t) => t.address);
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM sanction_entries WHERE address = ANY($1)',
    [unlisted],
  );
  if (rows[0]?.n) throw new Error(`${rows[0].n} made-up addresses are on a list`);
  const ids = targets.map(() => randomUUID());
  await pool.query(
    `WITH m AS (
       INSERT INTO monitors (id, user_id, chain, address, alert_level, every_hours, last_result, last_screened_at)
       SELECT id, $1, chain, address, 'MEDIUM', $2, $3::jsonb, now()
       FROM unnest($4::uuid[], $5::text[], $6::text[]) AS t(id, chain, address)
       RETURNING id, address)
     INSERT INTO monitor_watch (address, monitor_id) SELECT address, id FROM m`,
    [
      userId,
      EVERY_HOURS,
      JSON.stringify(CLEAN_BASELINE),
      ids,
      targets.map((t) => t.chain),
      targets.map((t) => t.address),
    ],
  );
  return { ids, chains: targets.map((t) => t.chain), touched: listed.map((t, i) => ({ id: ids[i] as string, ...t })) };
}

/** Starts every monitor's workflow (`pending: []`: no baseline screening); resolves with the wall time. */
export async function startMonitorWorkflows(
  temporal: Client,
  taskQueue: string,
  userId: string,
  fleet: MonitorFleet,
): Promise<number> {
  const { wallMs } = await inFlight(fleet.ids.length, CLIENT_CONCURRENCY, async (i) => {
    const input: MonitorWorkflowInput = {
      monitorId: fleet.ids[i] as string,
      userId,
      chain: fleet.chains[i] as string,
      everyHours: EVERY_HOURS,
      pending: [],
    };
    await temporal.workflow.start('monitorWorkflow', {
      workflowId: monitorWorkflowId(input.monitorId),
      taskQueue,
      args: [input],
      typedSearchAttributes: [
        { key: UserIdAttr, value: userId },
        { key: ChainAttr, value: input.chain },
      ],
    });
  });
  return wallMs;
}

/**
 * Waits until the worker has taken every first workflow task (the task queue's backlog reads 0 twice, 500 ms
 * apart: the server's count is approximate), so the figure is not measured behind that backlog.
 */
export async function awaitWorkflowBacklog(temporal: Client, taskQueue: string, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let zeros = 0;
  while (zeros < 2) {
    if (Date.now() > deadline) throw new Error(`the worker did not catch up with ${taskQueue} in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 500));
    const { stats } = await temporal.workflowService.describeTaskQueue({
      namespace: temporal.options.namespace,
      taskQueue: { name: taskQueue, kind: TASK_QUEUE_KIND_NORMAL },
      taskQueueType: TASK_QUEUE_TYPE_WORKFLOW,
      reportStats: true,
    });
    zeros = Number(stats?.approximateBacklogCount ?? 0) === 0 ? zeros + 1 : 0;
  }
}

/**
 * Ends every workflow (terminate: no workflow task for the worker to replay, unlike the `stop` signal) and marks
 * the monitors deleted with their watches gone, so later figures see none of them. Resolves with the wall time.
 */
export async function removeFleet(temporal: Client, pool: Pool, userId: string, fleet: MonitorFleet): Promise<number> {
  const { wallMs } = await inFlight(fleet.ids.length, CLIENT_CONCURRENCY, async (i) => {
    await temporal.workflow
      .getHandle(monitorWorkflowId(fleet.ids[i] as string))
      .terminate('bench P9 done')
      // Never started (a failed start) or already ended: nothing to end.
      .catch(() => undefined);
  });
  await pool.query(
    `UPDATE monitors SET status = 'deleted', deleted_at = now() WHERE user_id = $1 AND status <> 'deleted'`,
    [userId],
  );
  await pool.query('DELETE FROM monitor_watch w USING monitors m WHERE m.id = w.monitor_id AND m.user_id = $1', [
    userId,
  ]);
  return wallMs;
}
