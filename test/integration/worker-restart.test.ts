import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { startAnvil, sendNative } from '../helpers/anvil';
import { pollUntilDone, startTestStack, type TestStack } from '../helpers/test-stack';
import { serviceEnv } from '../helpers/service-env';

/** A node that accepts connections and never answers: the analysis hangs on it like on a stuck RPC. */
async function blackHole(): Promise<{ url: string; connected: Promise<void>; close(): Promise<void> }> {
  const sockets: Socket[] = [];
  let onConnect!: () => void;
  const connected = new Promise<void>((r) => (onConnect = r));
  const server: Server = createServer((s) => {
    sockets.push(s);
    onConnect();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    connected,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

describe('a worker that dies mid-job', () => {
  let stack: TestStack;
  let anvil: Awaited<ReturnType<typeof startAnvil>>;
  let hole: Awaited<ReturnType<typeof blackHole>>;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    // Chain id 1: the EVM client refuses a node whose eth_chainId is not the configured chain's.
    anvil = await startAnvil({ chainId: 1 });
    hole = await blackHole();
    stack = await startTestStack({
      worker: false,
      env: { ETHEREUM_RPC_URL: anvil.rpcUrl, ANALYSIS_HEARTBEAT_TIMEOUT_MS: '2000', CRAWL_TIMEOUT_DEFAULT_MS: '60000' },
    });
  });
  afterAll(async () => {
    try {
      if (child?.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone: the test killed it */
    }
    await stack.stop();
    await hole.close();
    await anvil.stop();
  });

  test('when the worker process is killed during the analysis, then a restarted worker finishes the ' +
    'job and it is charged once', async () => {
    const user = await stack.createUser({ credits: 2 });
    const target = '0x00000000000000000000000000000000000c0ffe';
    await sendNative({ rpcUrl: anvil.rpcUrl, to: target, valueWei: 10n ** 18n });

    // The real worker entry point (npm run worker), whose chain node never answers.
    child = spawn(process.execPath, [require.resolve('tsx/cli'), path.resolve('src/worker.ts')], {
      detached: true,
      stdio: 'ignore',
      // The environment every spawned process gets (no OFAC refresh schedule, free ports), over its chain node.
      env: {
        ...process.env,
        ...serviceEnv({
          databaseUrl: stack.config.DATABASE_URL as string,
          temporalAddress: stack.config.TEMPORAL_ADDRESS as string,
          taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
          extra: { LOG_LEVEL: 'error', ETHEREUM_RPC_URL: hole.url, CHAIN_REQUEST_TIMEOUT_MS: '60000' },
        }),
      },
    });
    const submit = await stack.http('POST', '/api/v1/kyt/job', {
      key: user.key,
      body: { chain: 'ethereum', address: target },
    });
    expect(submit.status).toBe(202);

    await hole.connected; // the doomed worker is inside the analysis now
    process.kill(-(child.pid as number), 'SIGKILL');
    await stack.startWorker();

    const polled = await pollUntilDone(stack, user.key, submit.body.data.request_id, 45_000);
    expect(polled.data.status).toBe('completed');
    expect(polled.data.response.target_summary.balances).toEqual([
      { asset: 'ETH', amount: 1, usd: expect.any(Number) },
    ]);
    // The crawl reached one hop (the anvil account that funded the target): 1 credit + 1 per hop beyond the first.
    expect(polled.data.credits_charged).toBe(2);
    expect((await stack.stores.credits.balance(user.id)).balance).toBe(0);

    const history = await stack.temporal.workflow.getHandle(`screening:${submit.body.data.request_id}`).fetchHistory();
    // The analysis is a local activity inside the job's workflow task: the killed worker's task timed out, and the
    // restarted worker ran the analysis again in a new task, whose marker is the only one recorded.
    const events = history.events ?? [];
    expect(events.filter((e) => e.workflowTaskTimedOutEventAttributes).length).toBeGreaterThanOrEqual(1);
    const analyses = events
      .map((e) => e.markerRecordedEventAttributes?.details?.data?.payloads?.[0]?.data)
      .filter((data): data is Uint8Array => !!data)
      .map((data) => JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type: string })
      .filter((marker) => marker.activity_type === 'analyzeTarget');
    expect(analyses).toHaveLength(1);
  }, 90_000);
});
