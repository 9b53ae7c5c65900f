import { connectRecording } from '../../test/helpers/realtime-client';
import { startBarePollServer } from '../bare/express-poll';
import type { BenchContext } from '../lib/context';
import { submitAndAwaitCompletion } from '../lib/jobs';
import type { Figure } from '../lib/report';
import { startHttpClientProcess } from '../lib/http-client-process';
import { inFlight, percentile, type Run } from '../lib/stats';

const JOBS_POLLED = 20;

/**
 * P3: GET /api/v1/kyt/job/:id from a client process (auth, the job store's primary-key select, the signed JSON
 * answer) ÷ that same select
 * (the poll's own query, findPollForUser) called directly on the service's pool, both at 100 in flight over
 * completed jobs. Each job is polled many times, as a client re-reading its answers does: authentication and the
 * answer's signature are then served from memory (src/identity/identity-cache.ts, src/screening/poll-signatures.ts).
 */
export async function measurePollLatency(ctx: BenchContext): Promise<Figure[]> {
  const { stack, config } = ctx;
  const polls = config.BENCH_POLLS;
  const concurrency = config.BENCH_POLL_CONCURRENCY;
  const user = await stack.createUser({ credits: JOBS_POLLED });
  const socket = await connectRecording(stack.api.url, user.key);
  const ids: string[] = [];
  try {
    for (let i = 0; i < JOBS_POLLED; i++) ids.push((await submitAndAwaitCompletion(stack, user.key, socket)).requestId);
  } finally {
    socket.close();
  }
  const idOf = (i: number) => ids[i % ids.length] as string;

  // The polls come from a client process of its own: in this process its CPU would be charged to the api, which
  // shares the event loop, while the baseline below has no HTTP client at all.
  const client = await startHttpClientProcess();
  const pollRound = (total: number) =>
    client.run({
      urls: ids.map((id) => `${stack.api.url}/api/v1/kyt/job/${id}`),
      headers: { 'x-api-key': user.key },
      total,
      concurrency,
      expectStatus: 200,
      expectText: '"status":"completed"',
    });
  const select = async (i: number) => {
    if (!(await stack.stores.jobs.findPollForUser(idOf(i), user.id, false))) throw new Error('the job row is missing');
  };
  const sum = (x: Run, y: Run): Run => ({ latencies: [...x.latencies, ...y.latencies], wallMs: x.wallMs + y.wallMs });
  let api: Run;
  let raw: Run;
  try {
    await pollRound(200);
    await inFlight(200, concurrency, select);
    ctx.progress(`P3: ${polls} polls and ${polls} primary-key selects, ${concurrency} in flight`);
    // Rounds A B B A, as sideBySide runs them.
    const half = Math.floor(polls / 2);
    const a1 = await pollRound(half);
    const b1 = await inFlight(half, concurrency, select);
    const b2 = await inFlight(polls - half, concurrency, (i) => select(half + i));
    const a2 = await pollRound(polls - half);
    api = sum(a1, a2);
    raw = sum(b1, b2);
  } finally {
    await client.close();
  }
  // Not the baseline: the floor any Express route over the same select has here (client, HTTP and Express included).
  const bare = await startBarePollServer(stack.stores.jobs, user.id);
  const barePoll = async (i: number) => {
    const res = await fetch(`${bare.url}/job/${idOf(i)}`);
    if (res.status !== 200) throw new Error(`the bare poll answered ${res.status}`);
    await res.json();
  };
  let floor: number[];
  try {
    await inFlight(200, concurrency, barePoll);
    floor = (await inFlight(polls, concurrency, barePoll)).latencies;
  } finally {
    await bare.close();
  }
  return [
    {
      id: 'P3',
      figure:
        `poll GET /kyt/job/:id p99, ${concurrency} in flight ÷ the same primary-key select on the same pool ` +
        `(${stack.config.DATABASE_POOL_SIZE} connections)`,
      value: percentile(api.latencies, 99),
      baseline: percentile(raw.latencies, 99),
      unit: 'ms',
      note:
        `p50 ${percentile(api.latencies, 50).toFixed(1)} vs ${percentile(raw.latencies, 50).toFixed(1)} ms; ` +
        `a bare Express route over the same select: p99 ${percentile(floor, 99).toFixed(0)}, ` +
        `p50 ${percentile(floor, 50).toFixed(1)} ms`,
    },
  ];
}
