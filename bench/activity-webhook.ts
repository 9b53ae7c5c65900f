/**
 * Activity webhook throughput and latency (spec 4.7 target: p99 under 2 s) at increasing concurrency,
 * beside a baseline in the same process: a bare Express + pg app that inserts the same row with a
 * plain INSERT (no secret check, validation, owner lookup or idempotency). Same Postgres, same pool size.
 * Run: npm run bench:activity   (REQUESTS per level, default 2000)
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import globalSetup from '../test/setup/global-setup';
import globalTeardown from '../test/setup/global-teardown';
import { startTestStack } from '../test/helpers/test-stack';

const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const LEVELS = [1, 10, 50, 100];
const SECRET = 'bench-activity-secret-0123456789';
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

const record = (userId: string) => ({
  activityType: 'kyt', userId, requestId: randomUUID(), blockchain: 'ethereum', transactionHash: `0x${randomUUID().replace(/-/g, '')}`,
  riskLevel: 'medium', riskScore: 55, statusCode: 200, responseSummary: { risk_level: 'MEDIUM', risk_score: 55 }, metadata: { bench: true },
  requestPayload: { chain: 'ethereum' }, responsePayload: { risk_score: 55, rule_scores: { tag_score: 55 } },
});

async function run(url: string, userId: string, concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = Date.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < REQUESTS) {
      next += 1;
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-activity-webhook-secret': SECRET }, body: JSON.stringify(record(userId)) });
      await res.arrayBuffer();
      if (res.status !== 201) failures += 1;
      latencies.push(performance.now() - t0);
    }
  }));
  const wall = (Date.now() - started) / 1000;
  return `${(REQUESTS / wall).toFixed(0).padStart(5)} req/s  p50=${pct(latencies, 50).toFixed(1)}ms p99=${pct(latencies, 99).toFixed(1)}ms${failures ? ` failures=${failures}` : ''}`;
}

async function main() {
  await globalSetup();
  const stack = await startTestStack({ env: { ACTIVITY_WEBHOOK_SECRET: SECRET, LOG_LEVEL: 'silent' }, worker: false });
  const user = await stack.createUser({ clerkUserId: 'user_benchActivity0000000001' });

  const bare = express();
  bare.use(express.json({ limit: '1mb' }));
  bare.post('/activity', async (req, res) => {
    const b = req.body;
    const { rows } = await stack.pool.query(
      `INSERT INTO activity_history (user_id, user_ref, idempotency_key, activity_type, request_id, blockchain, transaction_hash, risk_level, risk_score,
         response_summary, metadata, request_payload, response_payload, source) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'webhook') RETURNING id`,
      [user.id, b.userId, `bare:${b.requestId}`, b.activityType, b.requestId, b.blockchain, b.transactionHash, b.riskLevel, b.riskScore,
        JSON.stringify(b.responseSummary), JSON.stringify(b.metadata), JSON.stringify(b.requestPayload), JSON.stringify(b.responsePayload)],
    );
    res.status(201).json({ success: true, id: rows[0].id, requestId: b.requestId });
  });
  const bareServer = createServer(bare).listen(0, '127.0.0.1');
  await new Promise((r) => bareServer.once('listening', r));
  const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/activity`;

  console.log(`requests per level=${REQUESTS}, pool=${stack.config.DATABASE_POOL_SIZE}`);
  for (const c of LEVELS) {
    console.log(`concurrency ${String(c).padStart(3)}  webhook: ${await run(`${stack.api.url}/api/webhook/activity`, 'user_benchActivity0000000001', c)}`);
    console.log(`concurrency ${String(c).padStart(3)}  bare:    ${await run(bareUrl, 'user_benchActivity0000000001', c)}`);
  }
  bareServer.close();
  await stack.stop();
  await globalTeardown();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
