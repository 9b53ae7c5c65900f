import { connectRecording } from '../../test/helpers/realtime-client';
import { startBarePollServer } from '../bare/express-poll';
import type { BenchContext } from '../lib/context';
import { submitAndAwaitCompletion } from '../lib/jobs';
import type { Figure } from '../lib/report';
import { startHttpClientProcess } from '../lib/http-client-process';
import { inFlight, percentile, type Run } from '../lib/stats';

const JOBS_POLLED = 20;

/**
 * P3: GET /api/v1/kyt/job/:id (auth, the job store's primary-key select, the signed JSON answer) ÷ a bare Express
 * route over that same select (findPollForUser, no authentication, no signature), both polled by one client process
 * of its own at 100 in flight over completed jobs, p99 and p50. The select called directly on the pool stays in the
 * note as a reference: it has no HTTP at all, so it is the floor of neither. Each job is polled many times, as a
 * client re-reading its answers does: authentication and the answer's signature are then served from memory
 * (src/identity/identity-cache.ts, src/screening/poll-signatures.ts).
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

  // Both sides are polled from a client process of its own: in this process its CPU would be charged to whichever
  // server shares the bench's event loop (the api and the bare route both run here).
  const client = await startHttpClientProcess();
  const bare = await startBarePollServer(stack.stores.jobs, user.id);
  const round = (baseUrl: string, headers: Record<string, string>) => (total: number) =>
    client.run({
      urls: ids.map((id) => `${baseUrl}/${id}`),
      headers,
      total,
      concurrency,
      expectStatus: 200,
      expectText: '"status":"completed"',
    });
  const pollRound = round(`${stack.api.url}/api/v1/kyt/job`, { 'x-api-key': user.key });
  const bareRound = round(`${bare.url}/job`, {});
  const select = async (i: number) => {
    if (!(await stack.stores.jobs.findPollForUser(idOf(i), user.id, false))) throw new Error('the job row is missing');
  };
  const sum = (x: Run, y: Run): Run => ({ latencies: [...x.latencies, ...y.latencies], wallMs: x.wallMs + y.wallMs });
  let api: Run;
  let floor: Run;
  let raw: Run;
  try {
    await pollRound(200);
    await bareRound(200);
    await inFlight(200, concurrency, select);
    ctx.progress(`P3: ${polls} polls, ${polls} bare Express polls and ${polls} selects, ${concurrency} in flight`);
    // Rounds A B B A, as sideBySide runs them, so a slower stretch of the machine falls on both sides.
    const half = Math.floor(polls / 2);
    const a1 = await pollRound(half);
    const b1 = await bareRound(half);
    const b2 = await bareRound(polls - half);
    const a2 = await pollRound(polls - half);
    api = sum(a1, a2);
    floor = sum(b1, b2);
    raw = await inFlight(polls, concurrency, select);
  } finally {
    await bare.close();
    await client.close();
  }
  const figure = (p: 50 | 99): Figure => ({
    id: 'P3',
    figure: `poll GET /kyt/job/:id p${p}, ${concurrency} in flight ÷ a bare Express route over the same select, p${p}`,
    value: percentile(api.latencies, p),
    baseline: percentile(floor.latencies, p),
    unit: 'ms',
    note:
      `the select alone on the same pool (${stack.config.DATABASE_POOL_SIZE} connections, no HTTP): ` +
      `p${p} ${percentile(raw.latencies, p).toFixed(1)} ms`,
  });
  return [figure(99), figure(50)];
}
