import type { PoolClient } from 'pg';
import type { RescoreView } from './rescore-views';

interface RescoreRow {
  requestId: string;
  policyId: string;
  policyVersion: number;
  userId: string;
  result: Omit<RescoreView, 'credits_charged' | 'rescored_at'>;
  creditsCharged: number;
}

/** job_rescores: one row per (job, policy id, policy version); the first writer wins, later ones read its row. */
export function createRescoreStore() {
  const toView = (r: { result: RescoreRow['result']; credits_charged: number; created_at: Date }): RescoreView => ({
    ...r.result,
    credits_charged: Number(r.credits_charged),
    rescored_at: r.created_at.toISOString(),
  });
  return {
    async insert(client: PoolClient, row: RescoreRow): Promise<{ inserted: boolean; view: RescoreView }> {
      const inserted = await client.query(
        `INSERT INTO job_rescores (request_id, policy_id, policy_version, user_id, result, credits_charged)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING result, credits_charged, created_at`,
        [row.requestId, row.policyId, row.policyVersion, row.userId, JSON.stringify(row.result), row.creditsCharged],
      );
      if (inserted.rows[0]) return { inserted: true, view: toView(inserted.rows[0]) };
      // A concurrent first insert has committed by now (ON CONFLICT waited for it): answer with its row.
      const { rows } = await client.query(
        `SELECT result, credits_charged, created_at FROM job_rescores
         WHERE request_id = $1 AND policy_id = $2 AND policy_version = $3`,
        [row.requestId, row.policyId, row.policyVersion],
      );
      return { inserted: false, view: toView(rows[0]) };
    },
  };
}
