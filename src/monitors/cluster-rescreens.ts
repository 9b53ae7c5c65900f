import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import { inTransaction } from '../platform/db/transaction';
import { monitorWorkflowId } from './workflow-ids';
import { MONITOR_SIGNALS } from './workflow-types';

/**
 * Why a re-screen asked for by a cluster merge runs (stored with the request, shown among the monitor's re-screens).
 */
export const CLUSTER_MERGE_REASON = 'its wallet cluster merged with a labelled one';
/** The outbox event that tells the api to wake the monitor's workflow (the request row is what makes it due). */
export const MONITOR_RESCREEN_REQUESTED = 'monitor_rescreen_requested';

/**
 * Called when an analysis' cluster expansion merged sets (src/entities' ClusterPort hook): the active monitors watching
 * an address of that cluster, whose cluster now holds a labelled address (a sanctioned or labelled reference address,
 * or one of the monitor owner's own labels other than `allow`) and that have no re-screen pending, get a recorded
 * request and an outbox event, in one transaction. The api hears the event and signals `rescreen`; a lost signal
 * still leaves the request, which the schedule answers.
 */
export function requestClusterMergeRescreens(pool: Pool) {
  return async (chain: string, clusterId: number): Promise<string[]> =>
    inTransaction(pool, async (client) => {
      const { rows } = await client.query<{ id: string; user_id: string }>(
        `WITH members AS (SELECT address FROM cluster_addresses WHERE chain = $1 AND cluster_id = $2)
         SELECT m.id, m.user_id FROM monitors m
         WHERE m.status = 'active' AND m.chain = $1 AND m.address IN (SELECT address FROM members)
           AND NOT EXISTS (SELECT 1 FROM monitor_rescreen_requests r ` +
          `WHERE r.monitor_id = m.id AND r.answered_by IS NULL)
           AND (EXISTS (SELECT 1 FROM sanction_entries s WHERE s.delisted_version IS NULL
                          AND s.address IN (SELECT address FROM members))
             OR EXISTS (SELECT 1 FROM ref_address_labels l WHERE l.address IN (SELECT address FROM members)
                          AND l.category NOT IN ('exchange', 'infrastructure', 'token_contract', 'other'))
             OR EXISTS (SELECT 1 FROM custom_labels c WHERE c.user_id = m.user_id AND c.chain = $1
                          AND c.category <> 'allow' AND c.address IN (SELECT address FROM members)))
         FOR UPDATE OF m SKIP LOCKED`,
        [chain, clusterId],
      );
      if (rows.length === 0) return [];
      await client.query('INSERT INTO monitor_rescreen_requests (monitor_id, reason) SELECT unnest($1::uuid[]), $2', [
        rows.map((r) => r.id),
        CLUSTER_MERGE_REASON,
      ]);
      for (const r of rows)
        await client.query('SELECT realtime_notify($1, $2, $3)', [
          r.user_id,
          MONITOR_RESCREEN_REQUESTED,
          { monitorId: r.id, reason: CLUSTER_MERGE_REASON },
        ]);
      return rows.map((r) => r.id);
    });
}

/** The api's half: on the outbox event, wake the monitor's workflow (a second signal to a busy monitor is harmless). */
export function wakeMonitorOnClusterMerge(temporal: Client) {
  return async (monitorId: string): Promise<void> => {
    await temporal.workflow
      .getHandle(monitorWorkflowId(monitorId))
      .signal(MONITOR_SIGNALS.rescreen, { reason: CLUSTER_MERGE_REASON })
      .catch(() => undefined);
  };
}
