import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPool } from '../../src/platform/db/pool';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/platform/dev-services/embedded-postgres';
import { createLogger } from '../../src/platform/logging/logger';
import { prepareDatabase } from '../../src/app/prepare-database';
import { freePort } from '../helpers/anvil';
import { startTestStack, type TestStack } from '../helpers/test-stack';

const SECRET = 'activity-secret-for-tests-0123456789';

/** This file stops its own Postgres (not the run's shared one) to show the retryable 500. */
describe('history webhook while Postgres is down', () => {
  let root: string;
  let port: number;
  let db: EmbeddedDatabase;
  let stack: TestStack;
  const start = () => startEmbeddedPostgres({ dataDir: path.join(root, 'pg'), port, persistent: true });

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'chainscreen-outage-'));
    await chmod(root, 0o755);
    port = await freePort();
    db = await start();
    const pool = createPool(db.url, 2);
    await prepareDatabase(
      {
        LOAD_REFERENCE_DATA: false,
        REFERENCE_DATA_DIR: 'data/risk',
        LOAD_MARKET_DATA: false,
        MARKET_DATA_DIR: 'data/market',
        BOOTSTRAP_ADMIN_API_KEY: undefined,
      },
      pool,
      createLogger('silent'),
    );
    await pool.end();
    stack = await startTestStack({ env: { DATABASE_URL: db.url, ACTIVITY_WEBHOOK_SECRET: SECRET }, worker: false });
  }, 120_000);
  afterAll(async () => {
    await stack.stop();
    await db.stop();
    await rm(root, { recursive: true, force: true });
  });

  test('when Postgres is stopped, then 500 {error:"Failed to record activity"}; after it is back, ' +
    'the retry is stored exactly once', async () => {
    // Arrange
    const body = {
      activityType: 'kyt',
      userId: 'user_outage',
      requestId: randomUUID(),
      blockchain: 'ethereum',
      transactionHash: '0xdead',
    };
    const post = () =>
      stack.http('POST', '/api/webhook/activity', { body, headers: { 'x-activity-webhook-secret': SECRET } });
    await db.stop();

    // Act
    const during = await post();
    db = await start();
    const after = await post();
    const again = await post();

    // Assert
    expect(during.status).toBe(500);
    expect(during.body).toEqual({ error: 'Failed to record activity' });
    expect(after.status).toBe(201);
    expect(again.body.id).toBe(after.body.id);
    const { rows } = await stack.pool.query('SELECT count(*)::int AS n FROM activity_history WHERE request_id = $1', [
      body.requestId,
    ]);
    expect(rows[0].n).toBe(1);
  }, 120_000);
});
