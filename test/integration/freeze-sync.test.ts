import path from 'node:path';
import type { Pool } from 'pg';
import { loadConfig } from '../../src/app/config';
import { createListActivities } from '../../src/lists/activities';
import type { EvmNodeFreezeSettings, FreezeSyncSettings } from '../../src/lists/freezes';
import { ensureFreezeSync, freezeSources, freezeSyncSettings, syncFreezes } from '../../src/lists/freezes';
import type { freezeSyncWorkflow } from '../../src/lists/workflows';
import type { Chain } from '../../src/screening';
import { SCHEMA_FOLDERS } from '../../src/app/schema-folders';
import { migrate } from '../../src/platform/db/migrate';
import { createLogger } from '../../src/platform/logging/logger';
import { createReferenceData } from '../../src/screening/engine/reference-data';
import { loadReferenceData } from '../../src/screening/reference-data/datasets';
import { type AnvilNode, startAnvil } from '../helpers/anvil';
import {
  blockNumber,
  deployFreezeEvents,
  type FreezeEventsContract,
  mineBlocks,
} from '../helpers/freeze-events-contract';
import { startReplayServer } from '../helpers/replay-server';
import { screenJob, startTestStack } from '../helpers/test-stack';
import { createOwnDatabase, type OwnDatabase } from '../helpers/own-database';
import {
  ADDRESSES,
  emptyWindowCassettes,
  FIRST_END,
  FIRST_NOW,
  firstWindowCassettes,
  PAGE_SIZE,
  TRON_USDT,
  WINDOW_START,
} from '../helpers/trongrid-freeze-pages';

/**
 * Stablecoin freezes follow the chain: USDT's and USDC's freeze events, emitted on anvil by a contract with the
 * same event signatures (test/fixtures/contracts/FreezeEvents.sol), read by the sync and seen by the engine's
 * reference lists; TRON's from composed TronGrid pages through the replay server. On a database of this file's
 * own, over the shipped CSV, so the shared test database keeps the shipped freezes.
 */
const DATA = path.join(__dirname, '..', '..', 'data', 'risk');
const log = createLogger('silent');
const databaseName = `freezes_${process.pid}`;
const CONFIRMATIONS = 2;
const WINDOW_BLOCKS = 3;

/** A shipped row: blacklisted on Ethereum on 2018-06-09. */
const SHIPPED_ETHEREUM = '0x008fe40574e881e7247b50b991c0cc057d66647f';

let database: OwnDatabase;
let pool: Pool;
let anvil: AnvilNode;
let usdt: FreezeEventsContract;
let usdc: FreezeEventsContract;
let startBlock: bigint;

const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

const ethereumSettings = (overrides: Partial<EvmNodeFreezeSettings> = {}): FreezeSyncSettings => ({
  evm: {
    ethereum: {
      chain: 'ethereum',
      chainId: 1,
      rpcVariable: 'ETHEREUM_RPC_URL',
      rpcUrl: anvil.rpcUrl,
      timeoutMs: 5_000,
      contracts: [
        { chain: 'ethereum', token: 'USDT', contract: usdt.address },
        { chain: 'ethereum', token: 'USDC', contract: usdc.address },
      ],
      confirmations: CONFIRMATIONS,
      windowBlocks: WINDOW_BLOCKS,
      startBlock,
      ...overrides,
    },
  },
  tron: null,
});

const syncEthereum = (settings = ethereumSettings()) => syncFreezes({ pool, settings, log }, 'ethereum');

const freezesOf = async (chain: Chain, who: string) =>
  (await createReferenceData(pool).lookup(chain, [who])).get(who)!.freezes;

const rowOf = async (chain: string, token: string, who: string) =>
  (
    await pool.query(
      `SELECT status, first_blacklisted_at, last_event, last_event_at, last_event_tx, destroyed_usdt, source,
              last_event_block, last_event_index
       FROM ref_stablecoin_blacklist WHERE chain = $1 AND token = $2 AND address = $3`,
      [chain, token, who],
    )
  ).rows[0];

const cursorOf = async (chain: string, contract: string) =>
  (
    await pool.query(
      `SELECT last_block, last_block_timestamp, updated_at FROM freeze_cursors WHERE chain = $1 AND contract = $2`,
      [chain, contract],
    )
  ).rows[0];

beforeAll(async () => {
  database = await createOwnDatabase(databaseName);
  pool = database.pool;
  await migrate(pool, log, SCHEMA_FOLDERS);
  await loadReferenceData(pool, DATA, log);
  // Chain id 1: the reader refuses a node of another network than the one it reads.
  anvil = await startAnvil({ chainId: 1 });
  usdt = await deployFreezeEvents(anvil.rpcUrl);
  usdc = await deployFreezeEvents(anvil.rpcUrl);
  startBlock = await blockNumber(anvil.rpcUrl);
}, 120_000);

afterAll(async () => {
  await anvil?.stop();
  await database?.drop();
});

describe('stablecoin freezes on Ethereum', () => {
  const frozen = address(0xf1);

  test('when Tether adds an address, then once it is confirmed the reference lists report a USDT freeze', async () => {
    await usdt.emit('addBlackList', frozen);

    // The event's block is the head: fewer than FREEZES_CONFIRMATIONS blocks on top, so it is not read yet.
    await syncEthereum();
    expect(await freezesOf('ethereum', frozen)).toEqual([]);

    await mineBlocks(anvil.rpcUrl, CONFIRMATIONS);
    const [usdtRun] = (await syncEthereum()).contracts;
    expect(usdtRun).toMatchObject({ token: 'USDT', events: 1, changed: 1, caughtUp: true });

    const freezes = await freezesOf('ethereum', frozen);
    expect(freezes).toEqual([
      {
        chain: 'ethereum',
        token: 'USDT',
        status: 'blacklisted',
        since: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        lastEventAt: freezes[0]?.since,
        source: 'usdt-contract-events-sync',
      },
    ]);
    const cursor = await cursorOf('ethereum', usdt.address);
    expect(BigInt(cursor.last_block)).toBe((await blockNumber(anvil.rpcUrl)) - BigInt(CONFIRMATIONS));
  });

  test('when Tether removes it, then the freeze says removed and keeps when it began', async () => {
    const { since } = (await freezesOf('ethereum', frozen))[0]!;
    await usdt.emit('removeBlackList', frozen);
    await mineBlocks(anvil.rpcUrl, CONFIRMATIONS);
    await syncEthereum();

    expect(await freezesOf('ethereum', frozen)).toEqual([
      expect.objectContaining({ token: 'USDT', status: 'removed', since }),
    ]);
    expect(await rowOf('ethereum', 'USDT', frozen)).toMatchObject({ last_event: 'remove' });
  });

  test('when nothing happened since, then a sync reads nothing and changes nothing (the cursor stays)', async () => {
    const before = await cursorOf('ethereum', usdt.address);
    const row = await rowOf('ethereum', 'USDT', frozen);

    const { contracts } = await syncEthereum();

    expect(contracts.map((c) => [c.token, c.windows, c.events, c.changed])).toEqual([
      ['USDT', 0, 0, 0],
      ['USDC', 0, 0, 0],
    ]);
    expect(await cursorOf('ethereum', usdt.address)).toEqual(before);
    expect(await rowOf('ethereum', 'USDT', frozen)).toEqual(row);
  });

  test(
    'when a window is read again, then an event older than the stored one does not overwrite it, ' +
      'and a destroyed balance counts once',
    async () => {
      const user = address(0xf2);
      const from = (await blockNumber(anvil.rpcUrl)) + 1n;
      await usdt.emit('addBlackList', user);
      await usdt.emit('destroyBlackFunds', user, 5_250_000n);
      await usdt.emit('removeBlackList', user);
      await mineBlocks(anvil.rpcUrl, CONFIRMATIONS);
      const [first] = (await syncEthereum()).contracts;
      expect(first).toMatchObject({ events: 3, changed: 3 });
      expect(first!.windows).toBeGreaterThan(1); // three blocks of events and two on top, in windows of three
      const settled = await rowOf('ethereum', 'USDT', user);
      expect(settled).toMatchObject({ status: 'removed', last_event: 'remove', destroyed_usdt: '5.25' });

      // The cursor set back before the add: the add and the destroy are read again, older than the stored remove.
      await pool.query(`UPDATE freeze_cursors SET last_block = $3 WHERE chain = $1 AND contract = $2`, [
        'ethereum',
        usdt.address,
        (from - 1n).toString(),
      ]);
      const [again] = (await syncEthereum()).contracts;

      expect(again).toMatchObject({ events: 3, changed: 0 });
      expect(await rowOf('ethereum', 'USDT', user)).toEqual(settled);
      expect(await freezesOf('ethereum', user)).toEqual([expect.objectContaining({ status: 'removed' })]);
    },
  );

  test('when one transaction adds and then removes an address, then the later log wins', async () => {
    const user = address(0xf3);
    await usdt.emit('addThenRemoveBlackList', user);
    await mineBlocks(anvil.rpcUrl, CONFIRMATIONS);
    await syncEthereum();

    expect(await freezesOf('ethereum', user)).toEqual([expect.objectContaining({ token: 'USDT', status: 'removed' })]);
    expect(await rowOf('ethereum', 'USDT', user)).toMatchObject({ last_event_index: 1 });
  });

  test(
    'when Circle blacklists and unblacklists, then USDC freezes follow; USDC-shaped events of the ' +
      'USDT contract are not read',
    async () => {
      const held = address(0xc1);
      const stray = address(0xc2);
      await usdc.emit('blacklist', held);
      await usdt.emit('blacklist', stray);
      await mineBlocks(anvil.rpcUrl, CONFIRMATIONS);
      await syncEthereum();

      expect(await freezesOf('ethereum', held)).toEqual([
        expect.objectContaining({ token: 'USDC', status: 'blacklisted', source: 'usdc-contract-events-sync' }),
      ]);
      expect(await freezesOf('ethereum', stray)).toEqual([]);

      await usdc.emit('unBlacklist', held);
      await mineBlocks(anvil.rpcUrl, CONFIRMATIONS);
      await syncEthereum();
      expect(await freezesOf('ethereum', held)).toEqual([
        expect.objectContaining({ token: 'USDC', status: 'removed' }),
      ]);
    },
  );

  test(
    'when a shipped address is released on chain, then ' + 'its row says removed and keeps the shipped history',
    async () => {
      expect(await freezesOf('ethereum', SHIPPED_ETHEREUM)).toEqual([
        expect.objectContaining({ status: 'blacklisted', since: '2018-06-09T12:31:42Z' }),
      ]);
      await usdt.emit('removeBlackList', SHIPPED_ETHEREUM);
      await mineBlocks(anvil.rpcUrl, CONFIRMATIONS);
      await syncEthereum();

      expect(await freezesOf('ethereum', SHIPPED_ETHEREUM)).toEqual([
        expect.objectContaining({ token: 'USDT', status: 'removed', since: '2018-06-09T12:31:42Z' }),
      ]);
      expect(await rowOf('ethereum', 'USDT', SHIPPED_ETHEREUM)).toMatchObject({ destroyed_usdt: '467.8957' });
    },
  );

  test(
    'when a contract has no cursor and no start block, ' + 'then it starts one window before the confirmed head',
    async () => {
      const fresh = await deployFreezeEvents(anvil.rpcUrl);
      const early = address(0xe1);
      await fresh.emit('addBlackList', early);
      await mineBlocks(anvil.rpcUrl, WINDOW_BLOCKS + CONFIRMATIONS + 5);
      const settings = ethereumSettings({
        contracts: [{ chain: 'ethereum', token: 'USDT', contract: fresh.address }],
        startBlock: null,
      });

      const [run] = (await syncEthereum(settings)).contracts;

      const confirmedHead = (await blockNumber(anvil.rpcUrl)) - BigInt(CONFIRMATIONS);
      expect(run).toMatchObject({ windows: 1, events: 0, from: String(confirmedHead - BigInt(WINDOW_BLOCKS) + 1n) });
      expect(BigInt((await cursorOf('ethereum', fresh.address)).last_block)).toBe(confirmedHead);
      expect(await freezesOf('ethereum', early)).toEqual([]);

      const later = address(0xe2);
      await fresh.emit('addBlackList', later);
      await mineBlocks(anvil.rpcUrl, CONFIRMATIONS);
      await syncEthereum(settings);
      expect(await freezesOf('ethereum', later)).toEqual([expect.objectContaining({ status: 'blacklisted' })]);
    },
  );
});

describe('stablecoin freezes on TRON (composed TronGrid pages)', () => {
  const tronSettings = (apiUrl: string): FreezeSyncSettings => ({
    evm: {},
    tron: {
      apiUrl,
      apiKey: 'trongrid-test-key',
      timeoutMs: 5_000,
      contract: { chain: 'tron', token: 'USDT', contract: TRON_USDT },
      startAt: WINDOW_START,
    },
  });

  test(
    'when TronGrid lists freeze events, then they are applied in order over the shipped rows; ' +
      'the next window changes nothing',
    async () => {
      const laterNow = FIRST_NOW + 3_600_000;
      const replay = await startReplayServer([
        ...firstWindowCassettes(),
        ...emptyWindowCassettes(FIRST_END, laterNow - 120_000),
      ]);
      try {
        const sync = (now: number) =>
          syncFreezes(
            { pool, settings: tronSettings(replay.url), log, now: () => now, tronPageSize: PAGE_SIZE },
            'tron',
          );
        expect(await rowOf('tron', 'USDT', ADDRESSES.shipped)).toMatchObject({
          status: 'blacklisted',
          destroyed_usdt: '663548.114002',
        });

        const first = await sync(FIRST_NOW);

        expect(first.contracts).toEqual([
          expect.objectContaining({ chain: 'tron', windows: 1, events: 6, changed: 6, caughtUp: true }),
        ]);
        expect(await freezesOf('tron', ADDRESSES.addedThenRemoved)).toEqual([
          expect.objectContaining({ token: 'USDT', status: 'removed', since: '2025-10-01T01:00:00Z' }),
        ]);
        for (const who of [ADDRESSES.added, ADDRESSES.addedOnPageTwo])
          expect(await freezesOf('tron', who)).toEqual([expect.objectContaining({ status: 'blacklisted' })]);
        // Destroyed (1.5 USDT, added to the shipped sum) and then released; it was frozen since 2020.
        expect(await rowOf('tron', 'USDT', ADDRESSES.shipped)).toMatchObject({
          status: 'removed',
          first_blacklisted_at: '2020-06-26T15:55:54Z',
          last_event: 'remove',
          last_event_at: '2025-10-01T04:30:00Z',
          destroyed_usdt: '663549.614002',
        });
        expect(Number((await cursorOf('tron', TRON_USDT)).last_block_timestamp)).toBe(FIRST_END);

        const second = await sync(laterNow);
        expect(second.contracts).toEqual([expect.objectContaining({ windows: 1, events: 0, changed: 0 })]);
        expect(Number((await cursorOf('tron', TRON_USDT)).last_block_timestamp)).toBe(laterNow - 120_000);
        expect(replay.misses).toEqual([]);
      } finally {
        await replay.close();
      }
    },
  );
});

describe('stablecoin freezes on Base (a second anvil, chain id 8453), configured by FREEZES_EVM_CONTRACTS', () => {
  const held = address(0xba5e);
  let base: AnvilNode;
  let baseUsdc: FreezeEventsContract;
  /** A worker's environment: Base's endpoint, and the variable pointing Base's USDC at this anvil's contract. */
  let env: Record<string, string>;

  beforeAll(async () => {
    base = await startAnvil({ chainId: 8453 });
    baseUsdc = await deployFreezeEvents(base.rpcUrl);
    const baseStart = Number(await blockNumber(base.rpcUrl));
    env = {
      BASE_RPC_URL: base.rpcUrl,
      FREEZES_EVM_CONTRACTS: JSON.stringify({ base: { USDC: baseUsdc.address, startBlock: baseStart } }),
      FREEZES_CONFIRMATIONS: String(CONFIRMATIONS),
      FREEZES_WINDOW_BLOCKS: String(WINDOW_BLOCKS),
    };
  }, 60_000);

  afterAll(async () => {
    await base?.stop();
  });

  test('when the variable names a contract on Base, then a worker with BASE_RPC_URL reads Base, from there', () => {
    const settings = freezeSyncSettings(loadConfig({ NODE_ENV: 'test', ...env }));

    expect(freezeSources(settings)).toEqual(['base']);
    expect(settings.evm.base).toMatchObject({
      chainId: 8453,
      rpcUrl: base.rpcUrl,
      contracts: [{ chain: 'base', token: 'USDC', contract: baseUsdc.address }],
      startBlock: BigInt(JSON.parse(env.FREEZES_EVM_CONTRACTS!).base.startBlock),
    });
  });

  test('when Circle blacklists an address on Base, then the freeze sync records it under base, and a KYA of the ' +
    'address on base through the API shows the freeze', async () => {
    await baseUsdc.emit('blacklist', held);
    await mineBlocks(base.rpcUrl, CONFIRMATIONS);
    // The api and a worker configured by the environment alone (no settings handed in), over this file's database.
    const stack = await startTestStack({ env: { ...env, DATABASE_URL: database.url } });
    try {
      const sources = freezeSources(freezeSyncSettings(stack.config));
      const runs = await stack.temporal.workflow.execute<typeof freezeSyncWorkflow>('freezeSyncWorkflow', {
        taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
        workflowId: `freeze-sync-base-${stack.config.TEMPORAL_TASK_QUEUE}`,
        args: [{ sources }],
      });

      expect(runs).toEqual([
        {
          source: 'base',
          contracts: [expect.objectContaining({ chain: 'base', token: 'USDC', events: 1, changed: 1 })],
        },
      ]);
      expect(await rowOf('base', 'USDC', held)).toMatchObject({
        status: 'blacklisted',
        last_event: 'add',
        source: 'usdc-contract-events-sync',
      });

      const { polled, full } = await screenJob(stack, { chain: 'base', address: held });
      expect(polled.status).toBe('completed');
      expect(polled.response).toMatchObject({ chain: 'base', risk_level: 'HIGH' });
      expect(polled.response.rule_scores.is_blacklisted).toBe(90);
      expect(full.hits).toContainEqual(
        expect.objectContaining({
          rule: 'is_blacklisted',
          source: 'usdc-contract-events-sync',
          detail: expect.stringContaining('frozen by the USDC issuer on base since'),
        }),
      );
    } finally {
      await stack.stop();
    }
  }, 120_000);

  test('when the same key is looked up on another EVM network, then the Base freeze counts, under base', async () => {
    // A freeze is the issuer's word about the key's owner, who holds the same key on every EVM network.
    expect(await freezesOf('ethereum', held)).toEqual([
      expect.objectContaining({ chain: 'base', token: 'USDC', status: 'blacklisted' }),
    ]);
    expect(await freezesOf('tron', held)).toEqual([]);
  });
});

describe('the schedule lists-refresh:freezes', () => {
  test(
    'when a worker has an Ethereum node, then its schedule runs freezeSyncWorkflow and the runs read the chain; ' +
      'without a node there is none',
    async () => {
      // The real workflow and activity, over this file's database (the stack's own is the shared one).
      const stack = await startTestStack({
        env: { ETHEREUM_RPC_URL: anvil.rpcUrl },
        activities: (defaults) => ({
          ...defaults,
          ...createListActivities({ pool, log, freezeSync: ethereumSettings() }),
        }),
      });
      const config = { ...stack.config, FREEZES_SYNC_EVERY_MINUTES: 60 };
      try {
        const id = await ensureFreezeSync(stack.temporal, config, log);
        expect(id).toBe('lists-refresh:freezes');
        // A restart (or a second worker) updates the same schedule instead of failing.
        expect(await ensureFreezeSync(stack.temporal, { ...config, FREEZES_SYNC_EVERY_MINUTES: 30 }, log)).toBe(id);
        const handle = stack.temporal.schedule.getHandle(id as string);
        const schedule = await handle.describe();
        expect(schedule.spec.intervals).toEqual([expect.objectContaining({ every: 30 * 60_000 })]);
        expect(schedule.action).toMatchObject({
          type: 'startWorkflow',
          workflowType: 'freezeSyncWorkflow',
          taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
          args: [{ sources: ['ethereum'] }],
        });

        const user = address(0xd1);
        await usdt.emit('addBlackList', user);
        await mineBlocks(anvil.rpcUrl, CONFIRMATIONS);
        await handle.trigger();
        const until = Date.now() + 30_000;
        while ((await freezesOf('ethereum', user)).length === 0 && Date.now() < until)
          await new Promise((r) => setTimeout(r, 200));
        expect(await freezesOf('ethereum', user)).toEqual([expect.objectContaining({ status: 'blacklisted' })]);

        const noNode = { ...config, ETHEREUM_RPC_URL: undefined, TRON_API_URL: undefined };
        expect(await ensureFreezeSync(stack.temporal, noNode, log)).toBeNull();
        await expect(handle.describe()).rejects.toThrow();
      } finally {
        await stack.temporal.schedule
          .getHandle('lists-refresh:freezes')
          .delete()
          .catch(() => undefined);
        await stack.stop();
      }
    },
  );
});
