/**
 * The teams migration (033) on a database the previous code filled: a database of its own, migrated only up to 032
 * (the schema main had before teams) with the functions files of that time, filled by SQL as the old stores wrote it
 * (users, keys, a grant through grant_credits, a job, a monitor), then migrated to the end. Every
 * balance, key, job and monitor is still there and reachable through the API with the old key, and every user is the
 * active admin of its own one-member organization.
 */
import { randomUUID } from 'node:crypto';
import { generateApiKey, hashApiKey, displayPrefix } from '../../src/identity/api-key-format';
import { SCHEMA_FOLDERS } from '../../src/app/schema-folders';
import { migrate } from '../../src/platform/db/migrate';
import { readFunctionFiles } from '../../src/platform/db/schema-files';
import { createLogger } from '../../src/platform/logging/logger';
import { createOwnDatabase, type OwnDatabase } from '../helpers/own-database';
import { recordSecret } from '../helpers/run-log';
import { startTestStack, type TestStack } from '../helpers/test-stack';

const log = createLogger('silent');
const LAST_BEFORE_TEAMS = 32;
/** The functions files as they were at migration 032 (120_teams.sql and later hold triggers on tables 032 lacks). */
const FUNCTION_FILES_BEFORE_TEAMS = [
  '010_credits.sql',
  '020_outbox.sql',
  '030_credit-events.sql',
  '040_account-deactivated-events.sql',
  '050_activity-owner.sql',
  '060_job-status-events.sql',
  '070_api-key-revocation-events.sql',
  '080_credential-change-events.sql',
  '090_monitor-alerts.sql',
  '100_batches.sql',
  '110_risk-policies.sql',
];

interface OldAccount {
  id: string;
  key: string;
  requestId: string;
  monitorId: string;
}

let database: OwnDatabase;
let stack: TestStack;
const accounts: OldAccount[] = [];
let deactivated: { id: string; key: string };

/** What the old stores wrote for one user: the user, a key, a grant and its balance, a completed job, a monitor. */
async function oldAccount(o: { clerkUserId: string | null; role: 'user' | 'admin'; credits: number }) {
  const pool = database.pool;
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO users (clerk_user_id, email, role, display_name) VALUES ($1, $2, $3, $4) RETURNING id`,
    [o.clerkUserId, o.clerkUserId ? `${o.clerkUserId}@example.com` : null, o.role, o.clerkUserId ?? 'bootstrap admin'],
  );
  const id = (rows[0] as { id: string }).id;
  const key = generateApiKey();
  recordSecret(key);
  await pool.query(
    `INSERT INTO api_keys (user_id, name, key_hash, key_prefix, scopes) VALUES ($1, 'old', $2, $3, $4)`,
    [id, hashApiKey(key), displayPrefix(key), ['read', 'screening', 'billing', 'keys']],
  );
  // The credit store's grant, as the old code called it (the ledger entry, the balance, the outbox events).
  await pool.query(`SELECT * FROM grant_credits($1, $2, $3, 'before teams', 'admin', '{}'::jsonb)`, [
    id,
    o.credits,
    `old-grant:${id}`,
  ]);
  const requestId = randomUUID();
  const response = { api_type: 'KYA', chain: 'ethereum', risk_level: 'LOW', risk_score: 3 };
  await pool.query(
    `INSERT INTO screening_jobs (request_id, user_id, api_type, chain, target, crawl_timeout_ms, max_depth,
       credits_held, status, response, full_response, credits_charged, completed_at, reference_id)
     VALUES ($1, $2, 'KYA', 'ethereum', $3, 8000, 2, 1, 'completed', $4, $4, 1, now(), 'before-teams')`,
    [requestId, id, '0x8589427373d6d84e98730d7795d8f6f8731fda16', response],
  );
  const monitorId = randomUUID();
  await pool.query(
    `INSERT INTO monitors (id, user_id, chain, address, alert_level, every_hours)
     VALUES ($1, $2, 'ethereum', '0x7f367cc41522ce07553e823bf3be79a889debe1b', 'HIGH', 24)`,
    [monitorId, id],
  );
  return { id, key, requestId, monitorId };
}

beforeAll(async () => {
  database = await createOwnDatabase(`teams_migration_${randomUUID().replace(/-/g, '').slice(0, 12)}`);
  await migrate(database.pool, log, SCHEMA_FOLDERS, { upTo: LAST_BEFORE_TEAMS });
  const applied = await database.pool.query<{ max: number }>('SELECT max(version) AS max FROM schema_migrations');
  expect(applied.rows[0]?.max).toBe(LAST_BEFORE_TEAMS);
  // The functions and triggers the old code ran with (their files then): its writes fire them, and so does 033.
  for (const file of await readFunctionFiles(SCHEMA_FOLDERS))
    if (FUNCTION_FILES_BEFORE_TEAMS.includes(file.name)) await database.pool.query(file.sql);

  accounts.push(await oldAccount({ clerkUserId: `user_${randomUUID().slice(0, 8)}`, role: 'user', credits: 42 }));
  accounts.push(await oldAccount({ clerkUserId: null, role: 'admin', credits: 7 }));
  const gone = await oldAccount({ clerkUserId: `user_${randomUUID().slice(0, 8)}`, role: 'user', credits: 3 });
  await database.pool.query(`UPDATE users SET status = 'deactivated', deleted_at = now() WHERE id = $1`, [gone.id]);
  deactivated = gone;

  await migrate(database.pool, log, SCHEMA_FOLDERS);
  stack = await startTestStack({ worker: false, env: { DATABASE_URL: database.url } });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await database?.drop();
});

test(
  'when the old code filled the database, ' + 'then every user is the active admin of its own one-member team',
  async () => {
    const { rows } = await database.pool.query(
      `SELECT u.id, u.kind, array_agg(m.member_id::text || ':' || m.role || ':' || m.status) AS members
     FROM users u JOIN account_members m ON m.account_id = u.id GROUP BY u.id, u.kind`,
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toEqual({ id: row.id, kind: 'person', members: [`${row.id}:admin:active`] });
    const keys = await database.pool.query(
      'SELECT count(*)::int AS n FROM api_keys WHERE created_by IS DISTINCT FROM user_id',
    );
    expect(keys.rows[0].n).toBe(0);
  },
);

test.each([0, 1])(
  'when old account %i calls with its old key, then its balance, job, monitor, key and role are all there',
  async (i) => {
    // Arrange
    const old = accounts[i] as OldAccount;
    const key = old.key;

    // Act
    const [me, balance, job, monitors, keys, team] = await Promise.all([
      stack.http('GET', '/api/v1/me', { key }),
      stack.http('GET', '/api/v1/credits/balance', { key }),
      stack.http('GET', `/api/v1/kyt/job/${old.requestId}`, { key }),
      stack.http('GET', '/api/v1/monitors', { key }),
      stack.http('GET', '/api/v1/api-keys', { key }),
      stack.http('GET', '/api/v1/team', { key }),
    ]);

    // Assert
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({
      id: old.id,
      role: i === 1 ? 'admin' : 'user',
      account: { id: old.id, kind: 'person' },
      member: { id: old.id, role: 'admin' },
    });
    expect(balance.body.data).toMatchObject({ balance: i === 1 ? 7 : 42, reserved: 0 });
    expect(job.body.data).toMatchObject({
      request_id: old.requestId,
      status: 'completed',
      reference_id: 'before-teams',
    });
    expect(monitors.body.data.map((m: any) => m.id)).toEqual([old.monitorId]);
    expect(keys.body.data).toEqual([expect.objectContaining({ name: 'old', createdBy: old.id, revokedAt: null })]);
    expect(team.body.data.members).toEqual([expect.objectContaining({ id: old.id, role: 'admin', status: 'active' })]);
  },
);

test('when the user the old code deactivated calls with its key, then it is still refused', async () => {
  expect((await stack.http('GET', '/api/v1/me', { key: deactivated.key })).status).toBe(401);
});

test('when a new person is written after the migration, then its own membership comes with its row', async () => {
  const { rows } = await database.pool.query<{ id: string }>(
    'INSERT INTO users (clerk_user_id) VALUES ($1) RETURNING id',
    [`user_${randomUUID().slice(0, 8)}`],
  );
  const id = (rows[0] as { id: string }).id;
  const member = await database.pool.query(
    'SELECT role, status FROM account_members WHERE account_id = $1 AND member_id = $1',
    [id],
  );
  expect(member.rows).toEqual([{ role: 'admin', status: 'active' }]);
});
