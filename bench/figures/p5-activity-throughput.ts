import { postActivity } from '../bare/express-insert';
import type { BenchContext } from '../lib/context';
import type { Figure } from '../lib/report';
import { inFlight, percentile, perSecond, sideBySide } from '../lib/stats';

/**
 * P5: activity webhook posts per second (secret check, validation, owner lookup, idempotent insert)
 * ÷ the bare Express + pg INSERT app on the same pool, at the same concurrency, in alternating rounds.
 */
export async function measureActivityThroughput(ctx: BenchContext): Promise<Figure[]> {
  const { stack, config } = ctx;
  const posts = config.BENCH_ACTIVITY_POSTS;
  const concurrency = config.BENCH_ACTIVITY_CONCURRENCY;
  const webhook = `${stack.api.url}/api/webhook/activity`;
  const send = (url: string) => () => postActivity(url, ctx.activitySecret, ctx.activityClerkUserId);
  await inFlight(200, concurrency, send(webhook));
  await inFlight(200, concurrency, send(ctx.bareInsert.url));

  ctx.progress(`P5: ${posts} activity posts and ${posts} bare inserts, ${concurrency} in flight`);
  const { value: api, baseline: bare } = await sideBySide(posts, concurrency, send(webhook), send(ctx.bareInsert.url));
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
