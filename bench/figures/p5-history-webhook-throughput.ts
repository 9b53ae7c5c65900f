import { postHistoryEntry } from '../bare/express-insert';
import type { BenchContext } from '../lib/context';
import type { Figure } from '../lib/report';
import { inFlight, percentile, perSecond, type Run } from '../lib/stats';

/** Two rounds of one side as one run. */
const joined = (x: Run, y: Run): Run => ({ latencies: [...x.latencies, ...y.latencies], wallMs: x.wallMs + y.wallMs });

/**
 * P5: history webhook posts per second (secret check, validation, owner lookup, idempotent insert
 * batched with the posts of the same event-loop turn) ÷ the bare Express + pg INSERT app (one INSERT per
 * post) on the same pool, at the same concurrency, in alternating rounds.
 */
export async function measureHistoryWebhookThroughput(ctx: BenchContext): Promise<Figure[]> {
  const { stack, config } = ctx;
  const posts = config.BENCH_ACTIVITY_POSTS;
  const concurrency = config.BENCH_ACTIVITY_CONCURRENCY;
  const webhook = `${stack.api.url}/api/webhook/activity`;
  const send = (url: string) => () => postHistoryEntry(url, ctx.historyWebhookSecret, ctx.historyClerkUserId);
  await inFlight(200, concurrency, send(webhook));
  await inFlight(200, concurrency, send(ctx.bareInsert.url));

  ctx.progress(`P5: ${posts} activity posts and ${posts} bare inserts, ${concurrency} in flight`);
  // Rounds A B B A as sideBySide runs them, each after `concurrency` untimed posts that open its connections:
  // otherwise the side left idle past the servers' 5 s keep-alive (the webhook, during the two baseline rounds)
  // reconnects every lane at once and is timed on opening connections (first requests stalled 1-3 s here).
  const round = async (url: string, count: number): Promise<Run> => {
    await inFlight(concurrency, concurrency, send(url));
    return inFlight(count, concurrency, send(url));
  };
  const half = Math.floor(posts / 2);
  const api1 = await round(webhook, half);
  const bare1 = await round(ctx.bareInsert.url, half);
  const bare2 = await round(ctx.bareInsert.url, posts - half);
  const api2 = await round(webhook, posts - half);
  const api = joined(api1, api2);
  const bare = joined(bare1, bare2);
  return [
    {
      id: 'P5',
      figure: `activity webhook posts/s, ${concurrency} in flight ÷ bare Express + pg INSERT/s`,
      value: perSecond(posts, api.wallMs),
      baseline: perSecond(posts, bare.wallMs),
      unit: '/s',
      note: `p99 ${percentile(api.latencies, 99).toFixed(0)} vs ${percentile(bare.latencies, 99).toFixed(0)} ms`,
    },
  ];
}
