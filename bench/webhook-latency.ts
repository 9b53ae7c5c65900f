/**
 * Webhook latency on this machine (spec 4.7 target: under 2 s per request): PAYMENTS distinct signed
 * PayFast COMPLETE ITNs with CONCURRENCY in flight against the real stack, each for its own checkout.
 * Prints the acknowledgement latency and ITN → credits_granted-on-the-socket latency percentiles.
 * Run: npm run bench:webhooks
 */
import globalSetup from '../test/setup/global-setup';
import globalTeardown from '../test/setup/global-teardown';
import { completeItn, signedItn } from '../test/helpers/billing';
import { connectRecording } from '../test/helpers/realtime-client';
import { startTestStack } from '../test/helpers/test-stack';
import { post, WEBHOOK_ENV } from '../test/helpers/webhooks';

const PAYMENTS = Number(process.env.PAYMENTS ?? 200);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 10);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

async function main() {
  await globalSetup();
  const stack = await startTestStack({ env: WEBHOOK_ENV });
  const user = await stack.createUser();
  const socket = await connectRecording(stack.api.url, user.key);
  const ackMs: number[] = [];
  const grantMs: number[] = [];
  let next = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < PAYMENTS) {
        const n = (next += 1);
        const mPaymentId = `bench-${started}-${n}`;
        await stack.pool.query(`INSERT INTO payfast_checkouts (m_payment_id, user_id, package_id, amount_cents) VALUES ($1, $2, 'pro', 19900)`, [mPaymentId, user.id]);
        const pf = `${started % 1e8}${n}`;
        const t0 = Date.now();
        const res = await post(stack.api.url, '/api/v1/billing/payfast/webhook', {
          body: signedItn(completeItn({ mPaymentId, pfPaymentId: pf, amount: '199.00', customStr1: user.id })),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        if (res.status !== 200) throw new Error(`ITN answered ${res.status}`);
        ackMs.push(Date.now() - t0);
        await socket.waitFor('credits_granted', (p) => p.eventId === pf, 60_000);
        grantMs.push(Date.now() - t0);
      }
    }),
  );
  const wall = (Date.now() - started) / 1000;
  const { balance } = await stack.stores.credits.balance(user.id);
  console.log(`payments=${PAYMENTS} concurrency=${CONCURRENCY} wall=${wall.toFixed(1)}s throughput=${(PAYMENTS / wall).toFixed(1)} grants/s balance=${balance} (expected ${PAYMENTS * 500})`);
  console.log(`ITN → 200 OK              p50=${pct(ackMs, 50)}ms p95=${pct(ackMs, 95)}ms max=${Math.max(...ackMs)}ms`);
  console.log(`ITN → credits_granted     p50=${pct(grantMs, 50)}ms p95=${pct(grantMs, 95)}ms max=${Math.max(...grantMs)}ms`);
  socket.close();
  await stack.stop();
  await globalTeardown();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
