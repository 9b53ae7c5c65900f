import { post } from '../../test/helpers/webhooks';
import { historyEntryBody } from '../bare/express-insert';
import { startBareStartServer } from '../bare/express-start';
import type { BenchContext } from '../lib/context';
import type { Figure } from '../lib/report';
import { startHttpClientProcess } from '../lib/http-client-process';
import { percentile, type Run, sideBySide } from '../lib/stats';
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

  figures.push(await measureHistoryWebhookAck(ctx, count, concurrency));
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
      figure:
        `(HTTP floor of the rows above) bare Express route + bare workflow start p99, ${concurrency} in flight ÷ ` +
        'bare workflow start p99',
      value: percentile(routed.latencies, 99),
      baseline: percentile(starts.latencies, 99),
      unit: 'ms',
      note: `p50 ${percentile(routed.latencies, 50).toFixed(0)} vs ${percentile(starts.latencies, 50).toFixed(0)} ms`,
    };
  } finally {
    await server.close();
  }
}

/**
 * The history webhook's acknowledgement (201 once its row is stored) beside a bare Express + pg INSERT app, both
 * posted to by a client process of its own in rounds A B B A: in this process the client's CPU would be charged to
 * whichever server shares the bench's event loop (the api and the bare app both run here).
 */
async function measureHistoryWebhookAck(ctx: BenchContext, count: number, concurrency: number): Promise<Figure> {
  ctx.progress(`P4: ${count} activity posts, ${concurrency} in flight`);
  const client = await startHttpClientProcess();
  const body = JSON.stringify({
    ...historyEntryBody(ctx.historyClerkUserId),
    requestId: '$UUID',
    transactionHash: '0x$HEX32',
  });
  const round = (url: string) => (total: number) =>
    client.run({
      urls: [url],
      headers: { 'x-activity-webhook-secret': ctx.historyWebhookSecret },
      body,
      total,
      concurrency,
      expectStatus: 201,
      expectText: '"success":true',
    });
  const posts = round(`${ctx.stack.api.url}/api/webhook/activity`);
  const inserts = round(ctx.bareInsert.url);
  const sum = (x: Run, y: Run): Run => ({ latencies: [...x.latencies, ...y.latencies], wallMs: x.wallMs + y.wallMs });
  let value: Run;
  let baseline: Run;
  try {
    await posts(50);
    await inserts(50);
    const half = Math.floor(count / 2);
    const a1 = await posts(half);
    const b1 = await inserts(half);
    const b2 = await inserts(count - half);
    const a2 = await posts(count - half);
    value = sum(a1, a2);
    baseline = sum(b1, b2);
  } finally {
    await client.close();
  }
  return {
    id: 'P4',
    figure:
      `activity webhook acknowledgement (201, row stored) p99, ` +
      `${concurrency} in flight ÷ bare Express + pg INSERT p99, from a client process`,
    value: percentile(value.latencies, 99),
    baseline: percentile(baseline.latencies, 99),
    unit: 'ms',
    note: `p50 ${percentile(value.latencies, 50).toFixed(0)} vs ${percentile(baseline.latencies, 50).toFixed(0)} ms`,
  };
}
