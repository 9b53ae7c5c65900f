/**
 * Migration 035 (src/billing/migrations/035_drop_provider_checks.sql): the provider columns list no providers, so a
 * provider a feature declares needs no migration; the checks that say something else stay.
 */
import type { Pool } from 'pg';
import { createPool } from '../../src/platform/db/pool';

let pool: Pool;

beforeAll(() => {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set (jest global setup starts Postgres)');
  pool = createPool(url, 1);
});
afterAll(async () => {
  await pool?.end();
});

test('the only checks left on a provider column are the ones that do not list providers', async () => {
  const { rows } = await pool.query<{ name: string }>(`
    SELECT c.conname AS name
    FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
    WHERE n.nspname = 'public' AND c.contype = 'c' AND pg_get_constraintdef(c.oid) ~ '\\mprovider\\M'
    ORDER BY 1`);

  expect(rows.map((r) => r.name)).toEqual(['package_prices_check', 'payfast_refund_records_provider_check']);
});

test('a webhook event and a payment of a provider the schema never heard of are stored', async () => {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const user = await client.query<{ id: string }>('INSERT INTO users (email) VALUES ($1) RETURNING id', [
      'new-provider@example.com',
    ]);
    const userId = user.rows[0]?.id;

    await client.query(
      `INSERT INTO webhook_events (provider, event_id, event_type, user_id, outcome, payload)
       VALUES ('new-provider', 'evt-1', 'payment.completed', $1, 'applied', '{}')`,
      [userId],
    );
    await client.query(
      `INSERT INTO credited_payments (provider, payment_id, user_id, amount_cents, currency, credits)
       VALUES ('new-provider', 'pay-1', $1, 500, 'EUR', 10)`,
      [userId],
    );

    const stored = await client.query(
      `SELECT (SELECT count(*)::int FROM webhook_events WHERE provider = 'new-provider') AS events,
              (SELECT count(*)::int FROM credited_payments WHERE provider = 'new-provider') AS payments`,
    );
    expect(stored.rows[0]).toEqual({ events: 1, payments: 1 });
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
});
