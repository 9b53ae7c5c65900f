import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Pool } from 'pg';

export interface BareInsertServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The history webhook's baseline: a bare Express app that stores the same row with one plain INSERT
 * (no secret check, validation, owner lookup or idempotency) on the service's own pool.
 */
export async function startBareInsertServer(pool: Pool, userId: string): Promise<BareInsertServer> {
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.post('/activity', async (req, res) => {
    const b = req.body;
    const { rows } = await pool.query(
      `INSERT INTO activity_history (user_id, user_ref, idempotency_key, activity_type, request_id, blockchain, ` +
        `transaction_hash, risk_level, risk_score,
         response_summary, metadata, request_payload, response_payload, source) VALUES ($1, $2, $3, $4, $5, $6, ` +
        `$7, $8, $9, $10, $11, $12, $13, 'webhook') RETURNING id`,
      [
        userId,
        b.userId,
        `bare:${b.requestId}`,
        b.activityType,
        b.requestId,
        b.blockchain,
        b.transactionHash,
        b.riskLevel,
        b.riskScore,
        JSON.stringify(b.responseSummary),
        JSON.stringify(b.metadata),
        JSON.stringify(b.requestPayload),
        JSON.stringify(b.responsePayload),
      ],
    );
    res.status(201).json({ success: true, id: rows[0].id, requestId: b.requestId });
  });
  const server = createServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/activity`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One history entry as a reporting service posts it (fresh requestId each time). */
export const historyEntryBody = (clerkUserId: string) => ({
  activityType: 'kyt',
  userId: clerkUserId,
  requestId: randomUUID(),
  blockchain: 'ethereum',
  transactionHash: `0x${randomUUID().replace(/-/g, '')}`,
  riskLevel: 'medium',
  riskScore: 55,
  statusCode: 200,
  responseSummary: { risk_level: 'MEDIUM', risk_score: 55 },
  metadata: { bench: true },
  requestPayload: { chain: 'ethereum' },
  responsePayload: { risk_score: 55, rule_scores: { tag_score: 55 } },
});

/** POSTs one record and fails on anything but 201 (the webhook answers 201 for a stored row). */
export async function postHistoryEntry(url: string, secret: string, clerkUserId: string): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-activity-webhook-secret': secret },
    body: JSON.stringify(historyEntryBody(clerkUserId)),
  });
  await res.arrayBuffer();
  if (res.status !== 201) throw new Error(`activity POST to ${url} answered ${res.status}`);
}
