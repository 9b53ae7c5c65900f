import { randomBytes } from 'node:crypto';
import { sleep } from './report';

/** How one job of the load ended, as its client saw it. */
export interface JobOutcome {
  /** The accepted (202) job; null if none was accepted before the deadline. */
  requestId: string | null;
  status: 'completed' | 'failed' | 'queued' | 'not_accepted';
  /** Jobs answered 503 (workflow not started, nothing charged) before the client's retry was accepted. */
  refused: string[];
  /** Submits or polls that met a network error or an unexpected status, and were retried. */
  transientErrors: number;
  /** First submit → completed or failed. */
  ms: number;
}

export interface JobLoad {
  completed(): number;
  inFlight(): number;
  /** Resolves once `n` jobs have completed. */
  whenCompleted(n: number): Promise<void>;
  done: Promise<JobOutcome[]>;
}

/** A fresh EVM address per job: nothing is cached for it, so every analysis asks the (slow) node. */
export const freshEthereumKya = () => ({ chain: 'ethereum', address: `0x${randomBytes(20).toString('hex')}` });

async function call(url: string, init: RequestInit): Promise<{ status: number; body: any } | null> {
  try {
    const res = await fetch(url, init);
    const text = await res.text();
    try {
      return { status: res.status, body: JSON.parse(text) };
    } catch {
      return { status: res.status, body: text };
    }
  } catch {
    return null; // connection refused or reset: the caller retries
  }
}

/**
 * One client's job, the way a well-behaved integrator runs it: submit (a 503 or a dropped connection
 * is retried with backoff, as the 503's message asks), then poll every 200 ms until it is no longer queued.
 */
export async function runJob(apiUrl: string, key: string, body: object, deadline: number): Promise<JobOutcome> {
  const started = Date.now();
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const outcome: JobOutcome = { requestId: null, status: 'not_accepted', refused: [], transientErrors: 0, ms: 0 };
  let backoff = 200;
  while (!outcome.requestId && Date.now() < deadline) {
    const res = await call(`${apiUrl}/api/v1/kyt/job`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (res?.status === 202) {
      outcome.requestId = res.body.data.request_id;
      break;
    }
    if (res?.status === 503 && res.body?.request_id) outcome.refused.push(res.body.request_id);
    else outcome.transientErrors += 1;
    await sleep(backoff);
    backoff = Math.min(backoff * 2, 2_000);
  }
  while (outcome.requestId && Date.now() < deadline) {
    const res = await call(`${apiUrl}/api/v1/kyt/job/${outcome.requestId}`, { headers });
    const status = res?.status === 200 ? res.body.data.status : null;
    if (status === 'completed' || status === 'failed') {
      outcome.status = status;
      break;
    }
    if (status === null) outcome.transientErrors += 1;
    outcome.status = 'queued';
    await sleep(200);
  }
  outcome.ms = Date.now() - started;
  return outcome;
}

/** `jobs` jobs for one user by `concurrency` clients at once, each starting its next job when one ends. */
export function startJobLoad(options: {
  apiUrl: string;
  key: string;
  jobs: number;
  concurrency: number;
  body: () => object;
  deadline: number;
}): JobLoad {
  let next = 0;
  let completed = 0;
  let running = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  const outcomes: JobOutcome[] = [];
  const client = async () => {
    while (next < options.jobs) {
      next += 1;
      running += 1;
      const outcome = await runJob(options.apiUrl, options.key, options.body(), options.deadline);
      running -= 1;
      outcomes.push(outcome);
      if (outcome.status === 'completed') completed += 1;
      for (const w of waiters.filter((w) => completed >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  const done = Promise.all(Array.from({ length: options.concurrency }, client)).then(() => outcomes);
  return {
    completed: () => completed,
    inFlight: () => running,
    whenCompleted: (n) => (completed >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    done,
  };
}
