import { connectRecording } from '../../test/helpers/realtime-client';
import type { BenchContext } from '../lib/context';
import { submitAndAwaitCompletion } from '../lib/jobs';
import type { Figure } from '../lib/report';
import { inFlight, perSecond, sideBySide } from '../lib/stats';

const WARM_UP = 10;

/**
 * P1: completed jobs per second through the API (submit and hold, the job's workflow of two steps, the analysis and
 * the settle that charges and mirrors, then the socket event) ÷ bare workflows per second (an activity, then a local
 * activity, both no-ops) at the same concurrency on the same Temporal: what the service's own work costs over
 * Temporal's.
 */
export async function measureThroughput(ctx: BenchContext): Promise<Figure[]> {
  const { stack, bare, config } = ctx;
  const jobs = config.BENCH_JOBS;
  const concurrency = config.BENCH_JOBS_CONCURRENCY;
  const user = await stack.createUser({ credits: jobs + WARM_UP });
  const socket = await connectRecording(stack.api.url, user.key);
  try {
    await inFlight(WARM_UP, concurrency, async () => void (await submitAndAwaitCompletion(stack, user.key, socket)));
    await inFlight(WARM_UP, concurrency, () => bare.execute());

    ctx.progress(`P1: ${jobs} jobs through the API and ${jobs} bare workflows, ${concurrency} in flight`);
    const { value: api, baseline } = await sideBySide(
      jobs,
      concurrency,
      async () => void (await submitAndAwaitCompletion(stack, user.key, socket)),
      () => bare.execute(),
    );

    const charged = await stack.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM screening_jobs WHERE user_id = $1 ` +
        `AND status = 'completed' AND credits_charged > 0`,
      [user.id],
    );
    return [
      {
        id: 'P1',
        figure:
          `completed jobs/s through the API, ${concurrency} in flight ÷ bare workflows/s ` +
          '(an activity, then a local activity, both no-ops)',
        value: perSecond(jobs, api.wallMs),
        baseline: perSecond(jobs, baseline.wallMs),
        unit: '/s',
        note: `${jobs} each; ${charged.rows[0]?.n} of ${jobs + WARM_UP} jobs completed and charged`,
      },
    ];
  } finally {
    socket.close();
  }
}
