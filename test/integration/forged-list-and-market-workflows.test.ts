import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApplicationFailure, type WorkflowHandle } from '@temporalio/client';
import { freezeSyncSettings } from '../../src/lists/freezes';
import { createListStore } from '../../src/lists/list-store';
import { ensureOfacRefreshSchedule } from '../../src/lists/refresh-schedule';
import { listRefreshScheduleId } from '../../src/lists/workflow-ids';
import { reconcileMarketSync } from '../../src/market/market-sync-schedule';
import { marketSyncWorkflowId } from '../../src/market/workflow-ids';
import { loadConfig } from '../../src/app/config';
import { createLogger } from '../../src/platform/logging/logger';
import { startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * Whoever reaches the Temporal frontend can start any workflow with any input. Started by hand here with forged
 * inputs, listRefreshWorkflow, marketSyncWorkflow and freezeSyncWorkflow read nothing the worker's config does not
 * name and change nothing: the list versions, the reference list rows and the candles stay as they were, and a
 * server the inputs point at is never asked. Each forged case beside a control that the worker's own input passes
 * the same check (and is then refused by what follows, or stopped), so the refusals are the checks'.
 */
const log = createLogger('silent');
const OFAC = path.join(__dirname, '..', 'fixtures', 'ofac');
/** Real OFAC issues (test/fixtures/ofac/SOURCES.md), both older than the shipped list: loading one needs force. */
const OLDER = path.join(OFAC, 'sdn_advanced-2025-03-04.trimmed.xml.gz');
const NEWER = path.join(OFAC, 'sdn_advanced-2025-11-19.trimmed.xml.gz');

interface CountingServer {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/**
 * Records every request; serves `files` by path, and answers anything else as Binance does to an unknown pair (GET)
 * or a JSON-RPC node with an error (POST).
 */
async function countingServer(files: Record<string, Buffer> = {}): Promise<CountingServer> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    const file = files[req.url ?? ''];
    if (file) return res.end(file);
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(
      req.method === 'POST'
        ? JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'not a node' } })
        : JSON.stringify({ code: -1121, msg: 'Invalid symbol.' }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let stack: TestStack;
/** Where the forged inputs point: it must never see a request. */
let evil: CountingServer;
/** The configured exchange, OFAC endpoint and Ethereum node of this worker. */
let configured: CountingServer;
let root: string;
let issueDir: string;
let refreshSource: string;

const MARKET_ENV = {
  MARKET_LIVE_CONNECTOR: 'binance',
  MARKET_LIVE_SYMBOLS: 'TFORGE-USDT=FORGEUSDT',
  MARKET_LIVE_INTERVAL: '1h',
  MARKET_LIVE_POLL_SECONDS: '5',
  MARKET_LIVE_BACKFILL_CANDLES: '3',
};

beforeAll(async () => {
  evil = await countingServer();
  // The configured OFAC endpoint serves a real (older) issue, as OFAC's would serve the current one.
  configured = await countingServer({ '/SDN_ADVANCED.XML.gz': readFileSync(OLDER) });
  root = mkdtempSync(path.join(tmpdir(), 'forged-lists-'));
  issueDir = path.join(root, 'issues');
  mkdirSync(issueDir);
  copyFileSync(OLDER, path.join(issueDir, 'sdn_advanced-2025-03-04.xml.gz'));
  copyFileSync(NEWER, path.join(root, 'beside-the-dir.xml.gz'));
  // Inside the directory by name, outside it once resolved.
  symlinkSync(NEWER, path.join(issueDir, 'link-out.xml.gz'));
  refreshSource = `${configured.url}/SDN_ADVANCED.XML.gz`;
  // The freeze sync's settings as a worker with an Ethereum node has them (src/worker.ts passes them the same way).
  const freezeSync = freezeSyncSettings(
    loadConfig({ NODE_ENV: 'test', ETHEREUM_RPC_URL: configured.url, CHAIN_REQUEST_TIMEOUT_MS: '2000' }),
  );
  stack = await startTestStack({
    env: {
      OFAC_REFRESH_SOURCE: refreshSource,
      OFAC_ISSUE_DIR: issueDir,
      MARKET_LIVE_URL: configured.url,
      ...MARKET_ENV,
    },
    activityDeps: { freezeSync },
  });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await evil?.close();
  await configured?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** What a forged workflow must not change. */
async function snapshot() {
  const lists = createListStore(stack.pool);
  const digest = async (table: string) => {
    const { rows } = await stack.pool.query<{ count: string; digest: string | null }>(
      `SELECT count(*) AS count, md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM ${table} t`,
    );
    return rows[0];
  };
  return {
    versions: (await lists.versions('ofac', 1_000)).length,
    active: (await lists.activeVersion('ofac'))?.id ?? null,
    listChanges: await digest('list_changes'),
    sanctions: await digest('ref_sanctions'),
    freezes: await digest('ref_stablecoin_blacklist'),
    freezeCursors: await digest('freeze_cursors'),
    candles: await digest('market_candles'),
    nativeRanges: await digest('market_native_ranges'),
  };
}

const start = <T>(workflowType: string, input: T, workflowId = `forged-${workflowType}-${randomUUID()}`) =>
  stack.temporal.workflow.start(workflowType, {
    taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
    workflowId,
    args: [input],
  });

/**
 * The code the run failed with (the activity's failure type, or the workflow's own). A run still open after
 * `withinMs` fails the test with the run's last events, so a slow CI run says where it waited (an activity retry
 * waits 30 s first) instead of running into jest's timeout.
 */
async function failureCode(handle: WorkflowHandle, withinMs = 90_000): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const stillOpen = new Promise<'open'>((resolve) => {
    timer = setTimeout(() => resolve('open'), withinMs);
  });
  const error = await Promise.race([
    handle.result().then(
      () => undefined,
      (err: unknown) => err,
    ),
    stillOpen,
  ]).finally(() => clearTimeout(timer));
  if (error === 'open') {
    const events = (await handle.fetchHistory()).events ?? [];
    const last = events
      .slice(-4)
      .map((e) => `${e.eventId} ${e.eventType} ${e.activityTaskFailedEventAttributes?.failure?.message ?? ''}`);
    const pending = ((await handle.describe()).raw.pendingActivities ?? []).map(
      (a) => `${a.activityType?.name} attempt ${a.attempt}: ${a.lastFailure?.message ?? 'no failure yet'}`,
    );
    throw new Error(
      `${handle.workflowId} still open after ${withinMs} ms; last events: ${last.join(', ')}; pending: ${pending}`,
    );
  }
  expect(error).toBeDefined();
  for (let cause = error as Error | undefined; cause; cause = cause.cause as Error | undefined)
    if (cause instanceof ApplicationFailure) return cause.type ?? undefined;
  return undefined;
}

async function activitiesScheduled(handle: WorkflowHandle): Promise<number> {
  const history = await handle.fetchHistory();
  return history.events?.filter((e) => e.activityTaskScheduledEventAttributes).length ?? 0;
}

async function until(probe: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('listRefreshWorkflow started by hand', () => {
  test('when its input names a source the worker is not configured with, or forces a load, then the run fails with ' +
    'LIST_SOURCE_NOT_CONFIGURED before reading anything, and no list changes', async () => {
    const before = await snapshot();
    const forged = [
      // A real, newer-than-2025-03 OFAC issue on this machine, outside the configured directory.
      { list: 'ofac', source: NEWER },
      { list: 'ofac', source: path.join(root, 'beside-the-dir.xml.gz') },
      { list: 'ofac', source: path.join(issueDir, '..', 'beside-the-dir.xml.gz') },
      { list: 'ofac', source: path.join(issueDir, 'link-out.xml.gz') },
      { list: 'ofac', source: issueDir },
      { list: 'ofac', source: `${evil.url}/sdn_advanced.xml` },
      // The configured source, forced: a forced load delists entries, and only the CLI may do that.
      { list: 'ofac', source: refreshSource, force: true },
      { list: 'ofac', source: path.join(issueDir, 'sdn_advanced-2025-03-04.xml.gz'), force: true },
      { list: 'another', source: refreshSource },
      { list: 'ofac' },
    ];
    for (const input of forged) {
      const code = await failureCode(await start('listRefreshWorkflow', input));
      expect({ input, code }).toEqual({ input, code: 'LIST_SOURCE_NOT_CONFIGURED' });
    }
    expect(evil.requests).toEqual([]);
    expect(configured.requests).toEqual([]);
    expect(await snapshot()).toEqual(before);

    // Control: a file inside OFAC_ISSUE_DIR passes the check and is read; being older than the active version,
    // it is refused by the next rule (no force from a workflow), and still nothing changes.
    const inside = await start('listRefreshWorkflow', {
      list: 'ofac',
      source: path.join(issueDir, 'sdn_advanced-2025-03-04.xml.gz'),
    });
    expect(await failureCode(inside)).toBe('LIST_ISSUE_OUTDATED');
    expect(await snapshot()).toEqual(before);

    // Control: the schedule's own run reads OFAC_REFRESH_SOURCE (the configured server is asked), and is refused
    // by the same next rule.
    // The schedule is cluster-wide: one left by another file (with its open run, which SKIP overlap would let
    // stand in for this one) is removed first, so the run read below is the one this trigger started.
    const scheduleId = listRefreshScheduleId('ofac');
    await stack.temporal.schedule
      .getHandle(scheduleId)
      .delete()
      .catch(() => undefined);
    try {
      await ensureOfacRefreshSchedule(stack.temporal, { ...stack.config, OFAC_REFRESH_EVERY_HOURS: 24 }, log, {
        triggerNow: true,
      });
      let runId: string | undefined;
      await until(async () => {
        const described = await stack.temporal.schedule.getHandle(scheduleId).describe();
        runId = described.info.recentActions.at(-1)?.action.workflow.workflowId;
        return runId !== undefined;
      });
      expect(await failureCode(stack.temporal.workflow.getHandle(runId as string))).toBe('LIST_ISSUE_OUTDATED');
    } finally {
      await stack.temporal.schedule
        .getHandle(scheduleId)
        .delete()
        .catch(() => undefined);
    }
    expect(configured.requests).toEqual(['GET /SDN_ADVANCED.XML.gz']);
    expect(evil.requests).toEqual([]);
    expect(await snapshot()).toEqual(before);
  }, 300_000);
});

describe('marketSyncWorkflow started by hand', () => {
  const configuredInput = {
    connector: 'binance',
    interval: '1h',
    backfillCandles: 3,
    pollSeconds: 5,
    symbols: [{ symbol: 'TFORGE-USDT', exchangeSymbol: 'FORGEUSDT' }],
  };
  const id = marketSyncWorkflowId('binance');

  test('when its input is not the worker’s MARKET_LIVE_* (another endpoint, symbol, poll interval, backfill or ' +
    'workflow id), then the run fails with MARKET_SYNC_NOT_CONFIGURED, ' +
    'no exchange is asked and no candle written', async () => {
    const before = await snapshot();
    const forged: { input: Record<string, unknown>; workflowId?: string }[] = [
      { input: { ...configuredInput, baseUrl: evil.url } },
      { input: { ...configuredInput, symbols: [{ symbol: 'TEVIL-USDT', exchangeSymbol: 'EVILUSDT' }] } },
      {
        input: {
          ...configuredInput,
          symbols: [...configuredInput.symbols, { symbol: 'TEVIL-USDT', exchangeSymbol: 'EVILUSDT' }],
        },
      },
      // The configured symbol a hundred times over: a hundred requests a round.
      { input: { ...configuredInput, symbols: Array(100).fill(configuredInput.symbols[0]) } },
      { input: { ...configuredInput, symbols: [{ symbol: 'TFORGE-USDT', exchangeSymbol: 'EVILUSDT' }] } },
      { input: { ...configuredInput, pollSeconds: 0 } },
      { input: { ...configuredInput, backfillCandles: 100_000 } },
      { input: { ...configuredInput, interval: '1m' } },
      { input: { ...configuredInput, connector: 'kraken', baseUrl: evil.url } },
      // Everything as configured, but a second workflow beside the connector's one would double the requests.
      { input: configuredInput, workflowId: `forged-market-sync-${randomUUID()}` },
    ];
    for (const { input, workflowId } of forged) {
      const handle = await start('marketSyncWorkflow', input, workflowId ?? id);
      const code = await failureCode(handle);
      expect({ input, code }).toEqual({ input, code: 'MARKET_SYNC_NOT_CONFIGURED' });
      // Refused at its first call, not retried: one activity, then the run ended.
      expect(await activitiesScheduled(handle)).toBe(1);
    }
    expect(evil.requests).toEqual([]);
    expect(configured.requests.filter((r) => !r.startsWith('GET /SDN_ADVANCED'))).toEqual([]);
    expect(await snapshot()).toEqual(before);

    // Control: the worker's own input (as every worker's start writes it) passes and asks the configured exchange,
    // which refuses the pair: no candle.
    expect(await reconcileMarketSync(stack.temporal, stack.config, log)).toBe(id);
    try {
      await until(() => configured.requests.some((r) => r.startsWith('GET /api/v3/klines?symbol=FORGEUSDT')));
    } finally {
      await stack.temporal.workflow.getHandle(id).terminate('test over');
    }
    expect(evil.requests).toEqual([]);
    expect(await snapshot()).toEqual(before);
  }, 120_000);
});

describe('freezeSyncWorkflow started by hand', () => {
  test('when its input names an unknown chain, a chain twice or no list, then the run fails with ' +
    'FREEZE_SOURCE_UNKNOWN before any activity; ' +
    'what else an input carries cannot point the worker elsewhere', async () => {
    const before = await snapshot();
    const forged = [{ sources: ['bitcoin'] }, { sources: ['base', 'solana'] }, { sources: ['tron', 'tron'] }];
    for (const input of [...forged, { sources: 'ethereum' }, {}]) {
      const handle = await start('freezeSyncWorkflow', input);
      expect({ input, code: await failureCode(handle) }).toEqual({ input, code: 'FREEZE_SOURCE_UNKNOWN' });
      expect(await activitiesScheduled(handle)).toBe(0);
    }
    expect(await snapshot()).toEqual(before);

    // A known chain with a node, endpoint and contracts of the forger's beside it: the worker reads its own node.
    const handle = await start('freezeSyncWorkflow', {
      sources: ['ethereum'],
      rpcUrl: evil.url,
      ethereum: {
        rpcUrl: evil.url,
        contracts: [{ chain: 'ethereum', token: 'USDT', contract: `0x${'1'.repeat(40)}` }],
      },
      startBlock: 0,
    });
    try {
      await until(() => configured.requests.some((r) => r.startsWith('POST')));
    } finally {
      await handle.terminate('test over');
    }
    expect(evil.requests).toEqual([]);
    expect(await snapshot()).toEqual(before);
  }, 120_000);
});
