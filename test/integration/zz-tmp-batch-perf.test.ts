import { randomBytes } from 'node:crypto';
import { startTestStack, type TestStack } from '../helpers/test-stack';

const address = () => `0x${randomBytes(20).toString('hex')}`;
const ms = (t: any) => Number(t.seconds) * 1000 + Math.floor(t.nanos / 1e6);
describe('perf', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { BATCH_CONCURRENCY: process.env.BC ?? '20' } });
  });
  afterAll(async () => stack?.stop());
  test('batch', async () => {
    const N = Number(process.env.N ?? 200);
    const user = await stack.createUser({ credits: 10 * N });
    const t = Date.now();
    const r = await stack.http('POST', '/api/v1/kyt/batch', {
      key: user.key,
      body: { items: Array.from({ length: N }, () => ({ chain: 'ethereum', address: address() })) },
    });
    const submitMs = Date.now() - t;
    for (;;) {
      const g = await stack.http('GET', `/api/v1/kyt/batch/${r.body.data.batch_id}?limit=1`, { key: user.key });
      if (g.body.data.status === 'completed') break;
      await new Promise((res) => setTimeout(res, 100));
    }
    const batch = (Date.now() - t) / 1000;
    process.stdout.write(`PERF N=${N} batch ${batch}s (${(N / batch).toFixed(1)}/s) submit ${submitMs}ms\n`);
    // child timelines
    const items = (await stack.http('GET', `/api/v1/kyt/batch/${r.body.data.batch_id}?limit=1000`, { key: user.key })).body.data.items;
    const durations: number[] = [];
    const gaps: Record<string, number[]> = {};
    for (const item of items.slice(50, 60)) {
      const h = await stack.temporal.workflow.getHandle(`screening:${item.request_id}`).fetchHistory();
      const ev = h.events ?? [];
      const t0 = ms(ev[0]!.eventTime);
      durations.push(ms(ev[ev.length - 1]!.eventTime) - t0);
      const line = ev.map((e) => `${String(e.eventType).replace('EVENT_TYPE_', '')}+${ms(e.eventTime) - t0}`).join(' ');
      process.stdout.write(`${line}\n`);
    }
    process.stdout.write(`child durations ${durations.join(',')}\n`);
    const ph = await stack.temporal.workflow.getHandle(`batch:${r.body.data.batch_id}`).fetchHistory();
    const pev = ph.events ?? [];
    let inflight = 0; let area = 0; let last = ms(pev[0]!.eventTime); const t0 = last; let wft = 0; let maxIn = 0;
    for (const e of pev) {
      const now = ms(e.eventTime); area += inflight * (now - last); last = now;
      const ty = Number(e.eventType);
      if (ty === 29) inflight++;
      if (ty === 32) inflight--;
      if (ty === 7) wft++;
      maxIn = Math.max(maxIn, inflight);
    }
    process.stdout.write(`parent events ${pev.length} wft ${wft} avg inflight ${(area / (last - t0)).toFixed(1)} max ${maxIn} span ${last - t0}ms\n`);
    const tasks = pev.filter((e) => [5, 6, 7].includes(Number(e.eventType)));
    let sched = 0, lat: number[] = [], exec: number[] = [], st = 0;
    for (const e of tasks) { const ty = Number(e.eventType); const now = ms(e.eventTime);
      if (ty === 5) sched = now; else if (ty === 6) { lat.push(now - sched); st = now; } else exec.push(now - st); }
    const avg = (a: number[]) => (a.reduce((x, y) => x + y, 0) / a.length).toFixed(1);
    process.stdout.write(`wft sched->start avg ${avg(lat)} start->complete avg ${avg(exec)}\n`);
    void gaps;
  }, 600_000);
});
