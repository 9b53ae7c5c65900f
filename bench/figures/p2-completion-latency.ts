import { connectRecording } from '../../test/helpers/realtime-client';
import type { BenchContext } from '../lib/context';
import { submitAndAwaitCompletion } from '../lib/jobs';
import type { Figure } from '../lib/report';
import { percentile, sideBySide } from '../lib/stats';

/**
 * P2: submit → `completed` seen on the owner's socket (job_status_changed), at 10 in flight, beside a
 * bare workflow's start → result at the same concurrency.
 */
export async function measureCompletionLatency(ctx: BenchContext): Promise<Figure[]> {
  const { stack, bare, config } = ctx;
  const jobs = config.BENCH_LATENCY_JOBS;
  const concurrency = config.BENCH_LATENCY_CONCURRENCY;
  const user = await stack.createUser({ credits: jobs });
  const socket = await connectRecording(stack.api.url, user.key);
  try {
    ctx.progress(`P2: ${jobs} jobs, ${concurrency} in flight, completion seen on the socket`);
    const submits: number[] = [];
    const totals: number[] = [];
    const { baseline } = await sideBySide(
      jobs,
      concurrency,
      async () => {
        const { submitMs, totalMs } = await submitAndAwaitCompletion(stack, user.key, socket);
        submits.push(submitMs);
        totals.push(totalMs);
      },
      () => bare.execute(),
    );
    const row = (p: number): Figure => ({
      id: 'P2',
      figure:
        `submit→completed p${p} (job_status_changed on the socket), ` +
        `${concurrency} in flight ÷ bare workflow start→result`,
      value: percentile(totals, p),
      baseline: percentile(baseline.latencies, p),
      unit: 'ms',
      ...(p === 50
        ? {
            note:
              `submit 202 p50 ${percentile(submits, 50).toFixed(0)} ms, ` +
              `p99 ${percentile(submits, 99).toFixed(0)} ms`,
          }
        : {}),
    });
    return [row(50), row(99)];
  } finally {
    socket.close();
  }
}
