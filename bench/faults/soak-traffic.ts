import { randomUUID } from 'node:crypto';
import { completeItn, signedItn } from '../../test/helpers/billing';
import { connectRecording, type RecordingSocket } from '../../test/helpers/realtime-client';
import { historyEntryBody, postHistoryEntry } from './history-webhook-sender';
import type { FaultStack } from './fault-stack';
import { freshEthereumKya, runJob, type JobOutcome } from './job-load';
import { sleep } from './report';

/** What the soak's clients did, and every answer that was not the one expected. */
export interface SoakTally {
  ops: Record<string, number>;
  errors: number;
  /** The first few errors, described. */
  examples: string[];
  jobs: JobOutcome[];
  /** PayFast payments acknowledged with 200, whose credits_granted the buyer's socket must receive. */
  grantedPayments: string[];
}

export const emptySoakTally = (): SoakTally => ({ ops: {}, errors: 0, examples: [], jobs: [], grantedPayments: [] });

const CANDLES = [
  {
    interval: '1m',
    symbol: 'BTC-USDT',
    from: Date.parse('2024-12-01T00:00:00Z'),
    to: Date.parse('2024-12-27T00:00:00Z'),
  },
  {
    interval: '1h',
    symbol: 'BTC-USD',
    from: Date.parse('2015-01-01T00:00:00Z'),
    to: Date.parse('2023-06-01T00:00:00Z'),
  },
  {
    interval: '1w',
    symbol: 'BTC-USD',
    from: Date.parse('2014-01-01T00:00:00Z'),
    to: Date.parse('2014-01-02T00:00:00Z'),
  },
];
// A reference-data-only job (no bitcoin node is configured) beside the ethereum ones that go through the slow node.
const BITCOIN_KYA = { chain: 'bitcoin', address: '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h' };

export interface SoakUsers {
  screener: { key: string };
  /** Buys credits with PayFast and listens on a socket for them. */
  buyer: { id: string; key: string };
}

/** The soak's mixed traffic until `stopAt`: each loop counts its operations and reports unexpected answers. */
export function soakLoops(stack: FaultStack, users: SoakUsers, tally: SoakTally, stopAt: number): Promise<void>[] {
  const url = stack.apiUrl;
  const count = (op: string) => (tally.ops[op] = (tally.ops[op] ?? 0) + 1);
  const error = (what: string) => {
    tally.errors += 1;
    if (tally.examples.length < 5) tally.examples.push(what);
  };
  const completed: string[] = [];
  const get = async (path: string, headers: Record<string, string>) => {
    try {
      const res = await fetch(`${url}${path}`, { headers });
      return { status: res.status, body: (await res.json()) as any };
    } catch (err) {
      return { status: 0, body: String(err) };
    }
  };

  const jobs = async (n: number) => {
    while (Date.now() < stopAt) {
      const outcome = await runJob(url, users.screener.key, n % 2 ? BITCOIN_KYA : freshEthereumKya(), stopAt + 60_000);
      tally.jobs.push(outcome);
      count('jobs');
      if (outcome.status !== 'completed' || outcome.transientErrors > 0)
        error(`job ${outcome.requestId}: ${outcome.status}, ${outcome.transientErrors} transient errors`);
      else completed.push(outcome.requestId as string);
      n += 1;
    }
  };
  const polls = async () => {
    while (Date.now() < stopAt) {
      const id = completed[Math.floor(Math.random() * completed.length)];
      if (!id) {
        await sleep(200);
        continue;
      }
      for (const path of [`/api/v1/kyt/job/${id}`, `/api/v1/kyt/job/${id}/fullresponse`]) {
        const res = await get(path, { 'x-api-key': users.screener.key });
        count('polls');
        if (res.status !== 200 || res.body?.data?.status !== 'completed') error(`GET ${path}: ${res.status}`);
      }
    }
  };
  const historyEntries = async () => {
    while (Date.now() < stopAt) {
      const res = await postHistoryEntry(url, historyEntryBody(`user_faults_soak_${randomUUID().slice(0, 8)}`));
      count('webhooks');
      if (res?.status !== 201) error(`activity webhook: ${res?.status ?? 'connection error'}`);
    }
  };
  const candles = async () => {
    while (Date.now() < stopAt) {
      const c = CANDLES[Math.floor(Math.random() * CANDLES.length)]!;
      const start = c.from + Math.floor((Math.random() * (c.to - c.from)) / 60_000) * 60_000;
      const res = await get(
        `/api/v1/market-data/candles?symbol=${c.symbol}&interval=${c.interval}&limit=1000&startTime=${start}`,
        { authorization: `Bearer ${users.screener.key}` },
      );
      count('candles');
      if (res.status !== 200 || !(res.body?.data?.length > 0))
        error(`candles ${c.symbol} ${c.interval}: ${res.status}`);
    }
  };
  const payments = async () => {
    const pro = await stack.stores.packages.findById('pro');
    const price = pro?.prices.find((p) => p.provider === 'payfast');
    if (!price) throw new Error('the pro package has no PayFast price');
    while (Date.now() < stopAt) {
      const mPaymentId = `soak-${randomUUID()}`;
      await stack.pool.query(
        'INSERT INTO payfast_checkouts (m_payment_id, user_id, package_id, amount_cents, currency) ' +
          'VALUES ($1, $2, $3, $4, $5)',
        [mPaymentId, users.buyer.id, 'pro', price.amountCents, price.currency],
      );
      const pfPaymentId = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
      const body = signedItn(
        completeItn({
          mPaymentId,
          pfPaymentId,
          amount: (price.amountCents / 100).toFixed(2),
          customStr1: users.buyer.id,
        }),
      );
      try {
        const res = await fetch(`${url}/api/v1/billing/payfast/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new Uint8Array(body),
        });
        await res.arrayBuffer();
        count('payments');
        if (res.status === 200) tally.grantedPayments.push(pfPaymentId);
        else error(`PayFast ITN: ${res.status}`);
      } catch (err) {
        error(`PayFast ITN: ${String(err)}`);
      }
      await sleep(2_000);
    }
  };
  // Sockets that connect, stay a few seconds and leave, over and over: the churn a dashboard's tabs make.
  const sockets = async () => {
    while (Date.now() < stopAt) {
      let socket: RecordingSocket | undefined;
      try {
        socket = await connectRecording(url, users.buyer.key);
        count('sockets');
      } catch (err) {
        error(`socket connect: ${String(err)}`);
      }
      await sleep(3_000 + Math.random() * 4_000);
      socket?.close();
    }
  };
  return [
    jobs(0),
    jobs(1),
    jobs(0),
    polls(),
    historyEntries(),
    historyEntries(),
    candles(),
    payments(),
    sockets(),
    sockets(),
    sockets(),
  ];
}
