import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createScreeningActivities } from '../../src/screening/activities';
import type { ChainClient } from '../../src/screening/chains/chain-client';
import type { ScreeningEngine } from '../../src/screening/engine/engine';
import { runExposurePhase } from '../../src/screening/engine/exposure-phase';
import type { ReferenceData } from '../../src/screening/engine/reference-data';
import { shippedRiskModel } from '../../src/screening/engine/risk-model';
import { deadline } from '../../src/platform/abort/deadline';
import type { ScreeningInput } from '../../src/screening/workflow-types';
import { createHttpClient, HttpGiveUpError } from '../../src/platform/http-client/http-client';
import { startReplayServer, type ReplayServer } from '../helpers/replay-server';

/**
 * Deadlines must fire while the garbage collector runs. On Node 20, `AbortSignal.any([parent,
 * AbortSignal.timeout(ms)])` can lose its timeout source to a GC and then never aborts. The screening
 * activity and the exposure crawl built their crawlTimeout that way: in CI a KYT job whose chain node hung
 * stayed queued past its 2 s crawlTimeout, and the activity and exposure rows below were still waiting after 8 s
 * on the old code. A full GC runs every few dozen ms (one every 200 ms is enough to lose the timer), spaced
 * by three times its own length so that a big jest heap does not starve the event loop.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let pressure: NodeJS.Timeout | undefined;
function collectContinually(): void {
  const started = Date.now();
  gc();
  pressure = setTimeout(collectContinually, Math.max(30, 3 * (Date.now() - started)));
}
let server: ReplayServer | undefined;
beforeEach(() => collectContinually());
afterEach(async () => {
  clearTimeout(pressure);
  await server?.close();
  server = undefined;
});

const elapsed = async <T>(work: () => Promise<T>): Promise<{ ms: number; outcome: T | unknown }> => {
  const started = Date.now();
  const outcome = await work().catch((err: unknown) => err);
  return { ms: Date.now() - started, outcome };
};

/** Settles when the signal aborts, never otherwise: a chain call to a node that went silent. */
const untilAborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
/** The work's outcome, or 'still waiting' after `ms`: a lost deadline fails the row instead of hanging jest. */
const within = <T>(ms: number, work: Promise<T>) =>
  Promise.race([work.catch((err: unknown) => err), new Promise((r) => setTimeout(() => r('still waiting'), ms))]);

const hangingServer = () =>
  startReplayServer([{ request: { method: 'GET', path: '/hang' }, response: { body: {} }, hang: true }]);

describe('deadlines while the GC runs', () => {
  test('when only the timer is left holding a deadline, then it still aborts on time with a TimeoutError', async () => {
    // The clock starts before the deadline is armed: a GC pause between the two once made 300 ms read as 283.
    let d: ReturnType<typeof deadline> | undefined;
    const { ms, outcome } = await elapsed(() => {
      const armed = deadline(300);
      d = armed;
      return new Promise((_, reject) => armed.signal.addEventListener('abort', () => reject(armed.signal.reason)));
    });
    expect(outcome).toMatchObject({ name: 'TimeoutError' });
    expect(d?.timedOut).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(3_000);
  });

  test(
    'when a parent aborts first, then the deadline ' + 'aborts with the parent reason and its timer is gone',
    async () => {
      const parent = new AbortController();
      const d = deadline(60_000, parent.signal);
      setTimeout(() => parent.abort(new Error('job cancelled')), 200);
      const { ms, outcome } = await elapsed(
        () => new Promise((_, reject) => d.signal.addEventListener('abort', () => reject(d.signal.reason))),
      );
      expect(outcome).toMatchObject({ message: 'job cancelled' });
      expect(d.timedOut).toBe(false);
      expect(ms).toBeLessThan(3_000);
    },
  );

  test(
    'when a node never answers and the caller passes a crawl deadline, then the ' +
      'HTTP client gives up at the deadline',
    async () => {
      server = await hangingServer();
      const client = createHttpClient({ name: 'esplora', timeoutMs: 30_000, retry: { maxRetries: 0 } });
      const crawl = deadline(400);
      const { ms, outcome } = await elapsed(() =>
        client.request({ url: new URL(`${server!.url}/hang`), signal: crawl.signal }),
      );
      expect(outcome).toMatchObject({ name: 'TimeoutError' });
      expect(ms).toBeLessThan(3_000);
    },
  );

  test(
    'when a node never answers within the per-attempt timeout, then the attempt ends and the client ' +
      'gives up with that reason',
    async () => {
      server = await hangingServer();
      const client = createHttpClient({ name: 'esplora', timeoutMs: 300, retry: { maxRetries: 1, baseDelayMs: 10 } });
      const caller = new AbortController();
      const { ms, outcome } = await elapsed(() =>
        client.request({ url: new URL(`${server!.url}/hang`), signal: caller.signal }),
      );
      expect(outcome).toBeInstanceOf(HttpGiveUpError);
      expect((outcome as HttpGiveUpError).message).toMatch(/no answer within 300 ms \(gave up after 2 attempts\)/);
      expect(ms).toBeLessThan(4_000);
    },
  );

  test('when the engine waits on a silent node, then the screening activity ends at crawlTimeout', async () => {
    const engine = {
      analyze: (_req: unknown, signal: AbortSignal) => untilAborted(signal),
    } as unknown as ScreeningEngine;
    const input = {
      requestId: '00000000-0000-4000-8000-000000000001',
      userId: '00000000-0000-4000-8000-000000000002',
      apiType: 'KYT',
      chain: 'bitcoin',
      target: 'f'.repeat(64),
      maxDepth: 3,
      crawlTimeoutMs: 400,
      creditsHeld: 3,
    } as ScreeningInput;
    // The activity first checks its input against the job's hold and row: here, the ones the api would have written.
    const recorded = { hold_user: input.userId, hold_amount: '3', job_user: input.userId, job_status: 'queued' };
    const activities = createScreeningActivities({
      pool: { query: async () => ({ rows: [{ ...recorded, same_request: true }] }) } as never,
      engine,
      credits: {} as never,
      jobs: {} as never,
      history: {} as never,
      x402Payments: {} as never,
      metrics: { jobFinished: () => undefined, creditsConsumed: () => undefined, crawlCutShort: () => undefined },
    });
    const started = Date.now();
    const workflowExecution = { workflowId: `screening:${input.requestId}`, runId: 'run-1' };
    const outcome = await within(
      8_000,
      new MockActivityEnvironment({ heartbeatTimeoutMs: 10_000, workflowExecution }).run(
        activities.analyzeTarget,
        input,
      ),
    );
    expect(outcome).toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  test(
    'when the exposure crawl waits on a silent node, then ' + 'its share of crawlTimeout ends it, marked deadline',
    async () => {
      const silent = {
        chain: 'bitcoin',
        normalizeAddress: (a: string) => a,
        getAddressTransfers: (_a: string, _o: unknown, signal: AbortSignal) => untilAborted(signal),
      } as unknown as ChainClient;
      const referenceData = { lookup: async () => new Map() } as unknown as ReferenceData;
      const caller = new AbortController();
      const started = Date.now();
      const phase = await within(
        8_000,
        runExposurePhase({
          chain: 'bitcoin',
          client: silent,
          referenceData,
          model: shippedRiskModel(),
          usdValue: () => 0,
          apiType: 'KYA',
          roots: [{ address: 'bc1qsilent', direction: 'in' }],
          maxDepth: 3,
          crawlTimeoutMs: 600,
          subjectIsExchange: false,
          signal: caller.signal,
          now: Date.now,
        }),
      );
      expect(phase).toMatchObject({ outcome: { complete: false, truncated: expect.arrayContaining(['deadline']) } });
      expect(Date.now() - started).toBeLessThan(3_000);
    },
  );

  test(
    'when the service code is searched, then no deadline ' + 'is built from AbortSignal.any or AbortSignal.timeout',
    () => {
      const root = path.join(__dirname, '..', '..');
      const files = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const full = path.join(dir, name);
          return statSync(full).isDirectory() ? files(full) : /\.tsx?$/.test(name) ? [full] : [];
        });
      const offenders = ['src']
        .flatMap((dir) => files(path.join(root, dir)))
        .filter((file) =>
          /AbortSignal\.(any|timeout)\(/.test(readFileSync(file, 'utf8').replace(/^\s*(\*|\/\/).*$/gm, '')),
        )
        .map((file) => path.relative(root, file));
      expect(offenders).toEqual([]);
    },
  );
});
