/**
 * Screening latency on this machine: starts the same real stack as the tests (embedded Postgres,
 * Temporal dev server, api + worker), submits JOBS lists-only KYA jobs with CONCURRENCY in flight,
 * and prints submit latency and submit→completed latency percentiles. Run: npx tsx bench/screening-latency.ts
 */
import globalSetup from '../test/setup/global-setup';
import globalTeardown from '../test/setup/global-teardown';
import { pollUntilDone, startTestStack } from '../test/helpers/test-stack';

const JOBS = Number(process.env.JOBS ?? 100);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 10);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

async function main() {
  await globalSetup();
  const stack = await startTestStack();
  const user = await stack.createUser({ credits: JOBS });
  const submitMs: number[] = [];
  const totalMs: number[] = [];
  let next = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < JOBS) {
        next++;
        const t0 = Date.now();
        const res = await stack.http('POST', '/api/v1/kyt/job', { key: user.key, body: { chain: 'bitcoin', address: '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h' } });
        submitMs.push(Date.now() - t0);
        const done = await pollUntilDone(stack, user.key, res.body.data.request_id, 60_000);
        if (done.data.status !== 'completed') throw new Error(`job ended ${done.data.status}`);
        totalMs.push(Date.now() - t0);
      }
    }),
  );
  const wall = (Date.now() - started) / 1000;
  console.log(`jobs=${JOBS} concurrency=${CONCURRENCY} wall=${wall.toFixed(1)}s throughput=${(JOBS / wall).toFixed(1)} jobs/s`);
  console.log(`submit (202)        p50=${pct(submitMs, 50)}ms p95=${pct(submitMs, 95)}ms max=${Math.max(...submitMs)}ms`);
  console.log(`submit→completed    p50=${pct(totalMs, 50)}ms p95=${pct(totalMs, 95)}ms max=${Math.max(...totalMs)}ms (poll interval 100 ms)`);
  await stack.stop();
  await globalTeardown();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
