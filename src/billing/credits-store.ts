import type { Pool, PoolClient } from 'pg';
import { AppError } from '../platform/errors';
import { BILLING_ERRORS } from './error-codes';

type Queryable = Pool | PoolClient;

export interface LedgerResult {
  transactionId: string;
  balance: number;
  duplicate: boolean;
}

export interface GrantInput {
  userId: string;
  amount: number;
  /** Unique per grant across the whole ledger; a repeat returns the first grant. */
  idempotencyKey: string;
  reason: string | null;
  source: string;
  metadata?: Record<string, unknown>;
}

export interface ConsumeInput {
  userId: string;
  amount: number;
  idempotencyKey: string;
  holdKey: string | null;
  reason: string;
  metadata?: Record<string, unknown>;
}

export interface RevokeInput {
  userId: string;
  amount: number;
  /** Unique per revocation (the refund's id); a repeat returns the first. */
  idempotencyKey: string;
  reason: string;
  source: string;
  metadata?: Record<string, unknown>;
}

export interface RevokeResult extends LedgerResult {
  /** Taken from the available balance now; the rest of the amount became debt. */
  fromBalance: number;
  debt: number;
}

/**
 * balance = credits owned, reserved = held by running jobs, available = balance - reserved, debt = revoked
 * credits already spent.
 */
export interface Balance {
  balance: number;
  reserved: number;
  available: number;
  debt: number;
}

export class InsufficientCreditsError extends AppError {
  constructor(message: string) {
    super(BILLING_ERRORS.INSUFFICIENT_CREDITS, message);
  }
}

/** A charge against a hold that is not this user's, no longer exists, or holds less (consume_credits, P0412). */
export class ChargeNotHeldError extends AppError {
  constructor(message: string) {
    super(BILLING_ERRORS.CHARGE_NOT_HELD, message);
  }
}

interface LedgerRow {
  transaction_id: string;
  balance: number;
  duplicate: boolean;
}

const toResult = (r: LedgerRow): LedgerResult => ({
  transactionId: r.transaction_id,
  balance: r.balance,
  duplicate: r.duplicate,
});

/**
 * Thin wrappers over the stored functions of src/billing/functions/010_credits.sql: every rule about money lives in
 * SQL, in one transaction.
 */
export function createCreditStore(pool: Pool) {
  return {
    async grant(input: GrantInput, db: Queryable = pool): Promise<LedgerResult> {
      const { rows } = await db.query<LedgerRow>('SELECT * FROM grant_credits($1, $2, $3, $4, $5, $6)', [
        input.userId,
        input.amount,
        input.idempotencyKey,
        input.reason,
        input.source,
        JSON.stringify(input.metadata ?? {}),
      ]);
      return toResult(rows[0] as LedgerRow);
    },

    /** Holds up to `max` (at least `min`) credits; returns the amount held, 0 when `min` is not available. */
    async reserve(userId: string, holdKey: string, min: number, max: number, db: Queryable = pool): Promise<number> {
      const { rows } = await db.query<{ held: number }>('SELECT reserve_credits($1, $2, $3, $4) AS held', [
        userId,
        holdKey,
        min,
        max,
      ]);
      return Number(rows[0]?.held ?? 0);
    },

    /**
     * Holds for many jobs in the order given, each exactly as `reserve` would hold it called in turn (a batch's
     * items): one statement, the account row locked once. Returns each key's hold, 0 where `min` was not available.
     */
    async reserveMany(
      userId: string,
      holds: readonly { holdKey: string; max: number }[],
      min: number,
      db: Queryable = pool,
    ): Promise<number[]> {
      if (holds.length === 0) return [];
      const { rows } = await db.query<{ held: (string | number)[] }>(
        'SELECT reserve_credits_many($1, $2::text[], $3, $4::bigint[]) AS held',
        [userId, holds.map((h) => h.holdKey), min, holds.map((h) => h.max)],
      );
      return (rows[0]?.held ?? []).map(Number);
    },

    async releaseHold(holdKey: string, db: Queryable = pool): Promise<number> {
      const { rows } = await db.query<{ released: number }>('SELECT release_hold($1) AS released', [holdKey]);
      return Number(rows[0]?.released ?? 0);
    },

    async consume(input: ConsumeInput, db: Queryable = pool): Promise<LedgerResult> {
      try {
        const { rows } = await db.query<LedgerRow>('SELECT * FROM consume_credits($1, $2, $3, $4, $5, $6)', [
          input.userId,
          input.amount,
          input.idempotencyKey,
          input.holdKey,
          input.reason,
          JSON.stringify(input.metadata ?? {}),
        ]);
        return toResult(rows[0] as LedgerRow);
      } catch (err) {
        if ((err as { code?: string }).code === 'P0402') throw new InsufficientCreditsError((err as Error).message);
        if ((err as { code?: string }).code === 'P0412') throw new ChargeNotHeldError((err as Error).message);
        throw err;
      }
    },

    /** Takes credits back (refund, reversal): from the available balance, never below zero; the rest becomes debt. */
    async revoke(input: RevokeInput, db: Queryable = pool): Promise<RevokeResult> {
      const { rows } = await db.query<LedgerRow & { debt: number; from_balance: number }>(
        'SELECT * FROM revoke_credits($1, $2, $3, $4, $5, $6)',
        [
          input.userId,
          input.amount,
          input.idempotencyKey,
          input.reason,
          input.source,
          JSON.stringify(input.metadata ?? {}),
        ],
      );
      const row = rows[0] as LedgerRow & { debt: number; from_balance: number };
      return { ...toResult(row), fromBalance: Number(row.from_balance), debt: Number(row.debt) };
    },

    async balance(userId: string, db: Queryable = pool): Promise<Balance> {
      const { rows } = await db.query<{ balance: number; reserved: number; debt: number }>(
        'SELECT balance, reserved, debt FROM credit_accounts WHERE user_id = $1',
        [userId],
      );
      const balance = rows[0]?.balance ?? 0;
      const reserved = rows[0]?.reserved ?? 0;
      return { balance, reserved, available: balance - reserved, debt: rows[0]?.debt ?? 0 };
    },

    async findTransaction(
      idempotencyKey: string,
    ): Promise<{ id: string; userId: string; amount: number; kind: string } | null> {
      const { rows } = await pool.query<{ id: string; user_id: string; amount: number; kind: string }>(
        'SELECT id, user_id, amount, kind FROM credit_transactions WHERE idempotency_key = $1',
        [idempotencyKey],
      );
      const r = rows[0];
      return r ? { id: r.id, userId: r.user_id, amount: r.amount, kind: r.kind } : null;
    },
  };
}

export type CreditStore = ReturnType<typeof createCreditStore>;
