import path from 'node:path';
import express from 'express';
import type { Pool } from 'pg';
import request from 'supertest';
import { applyListIssue } from '../../src/lists/apply-list-issue';
import { readBundledOfac } from '../../src/lists/bundled-ofac';
import { createListStore } from '../../src/lists/list-store';
import { loadBundledLists } from '../../src/lists/load-bundled-lists';
import { createListsRouter } from '../../src/lists/lists-routes';
import { refreshOfacList } from '../../src/lists/refresh-list';
import { SCHEMA_FOLDERS } from '../../src/app/schema-folders';
import { migrate } from '../../src/platform/db/migrate';
import { createLogger } from '../../src/platform/logging/logger';
import { createScreeningEngine } from '../../src/screening/engine/engine';
import { loadPriceBook } from '../../src/screening/engine/prices';
import { createReferenceData } from '../../src/screening/engine/reference-data';
import { loadRiskModel } from '../../src/screening/engine/risk-model';
import { loadReferenceData } from '../../src/screening/reference-data/datasets';
import { createOwnDatabase, type OwnDatabase } from '../helpers/own-database';

/**
 * Sanctions lists as versions, on a database of this file's own (the other files share one and must keep the
 * shipped list): the bundled CSV, then real OFAC issues (trimmed extracts of 2025-03-04, 2025-03-21, 2025-11-19).
 */
const ROOT = path.join(__dirname, '..', '..');
const DATA = path.join(ROOT, 'data', 'risk');
const fixture = (date: string) => path.join(__dirname, '..', 'fixtures', 'ofac', `sdn_advanced-${date}.trimmed.xml.gz`);
const TORNADO = '0x8589427373d6d84e98730d7795d8f6f8731fda16'; // TORNADO CASH, CYBER2;DPRK3, delisted 2025-03-21
const LATER = '1HmqvgSXUVES1jn4TQPzk9dxo1NE8wim2T'; // Andreyev, Vitaliy Sergeyevich, designated 2025-08-27
const log = createLogger('silent');
const databaseName = `lists_${process.pid}`;

let database: OwnDatabase;
let pool: Pool;

const lists = () => createListStore(pool);
const engine = () =>
  createScreeningEngine({
    referenceData: createReferenceData(pool),
    chainClients: {},
    prices: loadPriceBook(path.join(ROOT, 'data', 'prices', 'usd-reference-prices.json')),
    model: loadRiskModel(DATA),
  });
const screen = (chain: 'bitcoin' | 'ethereum', target: string) =>
  engine().analyze({ apiType: 'KYA', chain, target, maxDepth: 1 }, new AbortController().signal);
const load = (date: string, force = false) =>
  refreshOfacList({ pool, lists: lists(), log }, { list: 'ofac', source: fixture(date), force });

beforeAll(async () => {
  database = await createOwnDatabase(databaseName);
  pool = database.pool;
  await migrate(pool, log, SCHEMA_FOLDERS);
  await loadReferenceData(pool, DATA, log);
  await loadBundledLists(pool, DATA, log);
}, 120_000);

afterAll(async () => {
  await database?.drop();
});

describe('sanctions list versions', () => {
  test('when the service starts, then the shipped list is the active version, dated by its newest source', async () => {
    const active = await lists().activeVersion('ofac');
    expect(active).toMatchObject({ issueDate: '2026-08-22', source: 'data/risk/sanctions_ofac.csv', entryCount: 966 });
    await loadBundledLists(pool, DATA, log);
    expect((await lists().versions('ofac')).length).toBe(1);
    const tornado = await lists().listingsOf('ofac', TORNADO, null);
    expect(tornado).toEqual([expect.objectContaining({ delistedOn: '2025-03-21', sdnName: 'TORNADO CASH' })]);
  });

  test(
    'when an official issue older than the active version is loaded without force, ' +
      'then it is refused and nothing changes',
    async () => {
      await expect(load('2025-03-04')).rejects.toMatchObject({ code: 'LIST_ISSUE_OUTDATED', httpStatus: 409 });
      expect((await lists().activeVersion('ofac'))?.issueDate).toBe('2026-08-22');
    },
  );

  test('when it is forced, then it loads, marked forced, and its diff lists what it removed', async () => {
    const outcome = await load('2025-03-04', true);
    expect(outcome.status).toBe('applied');
    if (outcome.status !== 'applied') return;
    expect(outcome.version).toMatchObject({ issueDate: '2025-03-04', forced: true });
    // Designations after 2025-03-04 (e.g. the later bitcoin address) are gone; Tornado Cash is listed again.
    expect(outcome.diff.removed.map((e) => e.address)).toContain(LATER);
    expect(outcome.diff.added.map((e) => e.address)).toContain(TORNADO);
    const tornado = await screen('ethereum', TORNADO);
    expect(tornado.response.rule_scores.is_sanctioned).toBe(100);
    expect(tornado.response.sanctions_list).toEqual({
      list: 'ofac',
      version: outcome.version.id,
      issue_date: '2025-03-04',
    });
  });

  test(
    'when 2025-03-21 is loaded, then Tornado Cash is ' + 'delisted: no longer sanctioned, its finding says when',
    async () => {
      const outcome = await load('2025-03-21');
      expect(outcome.status).toBe('applied');
      if (outcome.status !== 'applied') return;
      const removed = outcome.diff.removed.filter((e) => e.sdnName === 'TORNADO CASH').map((e) => e.address);
      expect(removed).toContain(TORNADO);
      expect(removed.length).toBeGreaterThanOrEqual(80);
      expect(outcome.diff.added).toEqual([]);

      const { response, full } = await screen('ethereum', TORNADO);
      expect(response.rule_scores.is_sanctioned).toBe(0);
      expect(response.sanctions_list?.issue_date).toBe('2025-03-21');
      const delisted = full.hits.find((h) => h.detail.includes('delisted on 2025-03-21'));
      expect(delisted).toMatchObject({ rule: 'tag_score', score: 30, category: 'sanctions_related' });
      expect(full.lists?.find((l) => l.list === 'ofac')).toMatchObject({
        issue_date: '2025-03-21',
        version: outcome.version.id,
      });
    },
  );

  test('when 2025-03-21 is loaded again, then nothing changes', async () => {
    const before = await lists().versions('ofac');
    const outcome = await load('2025-03-21');
    expect(outcome.status).toBe('unchanged');
    expect(await lists().versions('ofac')).toEqual(before);
  });

  test(
    'when an address designated after 2025-03-21 is screened before and after 2025-11-19 is loaded, then LOW, ' +
      'then HIGH naming that issue',
    async () => {
      const before = await screen('bitcoin', LATER);
      expect(before.response.risk_level).toBe('LOW');
      expect(before.response.rule_scores.is_sanctioned).toBe(0);

      const outcome = await load('2025-11-19');
      expect(outcome.status).toBe('applied');
      const after = await screen('bitcoin', LATER);
      expect(after.response.risk_level).toBe('HIGH');
      expect(after.response.rule_scores.is_sanctioned).toBe(100);
      expect(after.response.sanctions_list?.issue_date).toBe('2025-11-19');
      expect(after.response.risk_reason).toContain('Andreyev');
      expect(after.full.hits.find((h) => h.rule === 'is_sanctioned')?.source).toBe('ofac-sdn 2025-11-19');
    },
  );

  test('when asked whether an address was listed on a date, then its listings across versions answer', async () => {
    const listings = await lists().listingsOf('ofac', TORNADO, ['ethereum']);
    const listedOn = (d: string) =>
      listings.some((e) => e.listedOn <= d && (e.delistedOn === null || e.delistedOn > d));
    // The shipped list dates Tornado Cash's designation 2022-11-08 and its delisting 2025-03-21.
    expect(listedOn('2023-01-01')).toBe(true);
    expect(listedOn('2025-03-22')).toBe(false);
    expect(listedOn('2022-01-01')).toBe(false);
  });

  test('when two loads of the same issue race, then one version is made', async () => {
    const bundled = await readBundledOfac(DATA);
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => applyListIssue({ pool, lists: lists() }, bundled)),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const versions = await lists().versions('ofac', 50);
    expect(versions.filter((v) => v.sha256 === bundled.sha256 && v.supersededAt === null)).toHaveLength(1);
  });
});

describe('GET /api/v1/lists', () => {
  test(
    'when a version was read from a URL with credentials, a query and a fragment, and the refresh source has them ' +
      'too, then the answer names both without any of them',
    async () => {
      const secretUrl = 'https://user:secret@example.com/sdn.xml?token=abc#sig=def';
      const bundled = await readBundledOfac(DATA);
      // A new issue date and digest, so it becomes the active version.
      await applyListIssue(
        { pool, lists: lists() },
        { ...bundled, source: secretUrl, issueDate: '2099-01-01', sha256: 'f'.repeat(64) },
      );
      const app = express();
      app.use((_req, res, next) => {
        res.locals.user = { id: 'reader', role: 'user' };
        next();
      });
      app.use(
        createListsRouter({
          pool,
          lists: lists(),
          ofacRefresh: {
            enabled: true,
            everyHours: 24,
            source: 'https://ops:hunter2@lists.example/SDN.XML?key=k1',
            maxAgeDays: 8,
          },
        }),
      );
      const res = await request(app).get('/lists');
      expect(res.status).toBe(200);
      const ofac = res.body.data.sanctions[0];
      expect(ofac.active.source).toBe('https://example.com/sdn.xml');
      expect(ofac.refresh.source).toBe('https://lists.example/SDN.XML');
      for (const secret of ['user:', 'secret', 'token=abc', 'sig=def', 'ops:', 'hunter2', 'key=k1'])
        expect(JSON.stringify(res.body)).not.toContain(secret);
      // What is stored is the source as read: only the answer leaves the credentials out.
      expect((await lists().activeVersion('ofac'))?.source).toBe(secretUrl);
    },
  );
});
