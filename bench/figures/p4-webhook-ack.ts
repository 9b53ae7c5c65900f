import { post } from '../../test/helpers/webhooks';
import { postHistoryEntry } from '../bare/express-insert';
import { startBareStartServer } from '../bare/express-start';
import type { BenchContext } from '../lib/context';
import type { Figure } from '../lib/report';
import { percentile, sideBySide } from '../lib/stats';
import { awaitProcessed, PROVIDERS } from './p4-webhook-deliveries';

/**
 * P4: acknowledgement p99 of validly signed deliveries per provider, at the same concurrency.
 * PayPal, PayFast and Clerk verify the signature and start one workflow per event before answering,
 * so their baseline is a bare workflow start; the history webhook stores a row before answering,
 * so its baseline is the bare Express + INSERT app. One more row shows the part of a provider's ratio that is
 * the HTTP round trip alone: a bare Express route around the same bare start.
 */
export async function measureWebhookAcks(ctx: BenchContext): Promise<Figure[]> {
  const { stack, bare, config } = ctx;
  const count = config.BENCH_WEBHOOKS;
  const concurrency = config.BENCH_WEBHOOK_CONCURRENCY;
  const figures: Figure[] = [];

  for (const provider of PROVIDERS) {
    const deliveries = await provider.prepare(stack, count);
    ctx.progress(`P4: ${count} signed ${provider.name} deliveries, ${concurrency} in flight`);
    const { value: acks, baseline: starts } = await sideBySide(
      count,
      concurrency,
      async (i) => {
        const res = await post(stack.api.url, provider.route, deliveries[i]!.delivery);
        if (res.status !== 200) throw new Error(`${provider.name} answered ${res.status}: ${res.text.slice(0, 200)}`);
      },
      () => bare.start(),
    );
    const processed = await awaitProcessed(
      stack,
      provider.name,
      deliveries.map((d) => d.eventId),
    );
    if (processed !== count) throw new Error(`${provider.name}: only ${processed} of ${count} events were processed`);
    figures.push({
      id: 'P4',
      figure: `${provider.name} webhook acknowledgement p99, ${concurrency} in flight ÷ bare workflow start p99`,
      value: percentile(acks.latencies, 99),
      baseline: percentile(starts.latencies, 99),
      unit: 'ms',
      note:
        `p50 ${percentile(acks.latencies, 50).toFixed(0)} vs ${percentile(starts.latencies, 50).toFixed(0)} ms; ` +
        `${processed}/${count} events processed`,
    });
  }

  figures.push(await measureHttpFloor(ctx));

  ctx.progress(`P4: ${count} activity posts, ${concurrency} in flight`);
  const webhook = `${stack.api.url}/api/webhook/activity`;
  const { value: posts, baseline: inserts } = await sideBySide(
    count,
    concurrency,
    () => postHistoryEntry(webhook, ctx.historyWebhookSecret, ctx.historyClerkUserId),
    () => postHistoryEntry(ctx.bareInsert.url, ctx.historyWebhookSecret, ctx.historyClerkUserId),
  );
  figures.push({
    id: 'P4',
    figure:
      `activity webhook acknowledgement (201, row stored) p99, ` +
      `${concurrency} in flight ÷ bare Express + pg INSERT p99`,
    value: percentile(posts.latencies, 99),
    baseline: percentile(inserts.latencies, 99),
    unit: 'ms',
    note: `p50 ${percentile(posts.latencies, 50).toFixed(0)} vs ${percentile(inserts.latencies, 50).toFixed(0)} ms`,
  });
  return figures;
}

/**
 * The HTTP floor of the provider rows: a bare Express route that only awaits the bare workflow start, beside the
 * bare start itself. A provider's ratio above this one is the route's own work (signature, parsing, the start's
 * options); up to it, the cost of answering over HTTP at all.
 */
async function measureHttpFloor(ctx: BenchContext): Promise<Figure> {
  const { bare, config } = ctx;
  const count = config.BENCH_WEBHOOKS;
  const concurrency = config.BENCH_WEBHOOK_CONCURRENCY;
  const server = await startBareStartServer(() => bare.start());
  try {
    ctx.progress(`P4: ${count} bare starts behind a bare Express route, ${concurrency} in flight`);
    const { value: routed, baseline: starts } = await sideBySide(
      count,
      concurrency,
      async () => {
        const res = await fetch(server.url, { method: 'POST' });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`bare start route answered ${res.status}`);
      },
      () => bare.start(),
    );
    return {
      id: 'P4',
      figure: `(HTTP floor of the rows above) bare Express route + bare workflow start p99, ${concurrency} in flight ÷ bare workflow start p99`,
      value: percentile(routed.latencies, 99),
      baseline: percentile(starts.latencies, 99),
      unit: 'ms',
      note: `p50 ${percentile(routed.latencies, 50).toFixed(0)} vs ${percentile(starts.latencies, 50).toFixed(0)} ms`,
    };
  } finally {
    await server.close();
  }
}
