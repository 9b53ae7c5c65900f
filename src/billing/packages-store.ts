import type { Pool, PoolClient } from 'pg';

export interface PackagePrice {
  provider: 'paypal' | 'payfast';
  currency: string;
  amountCents: number;
  paypalPlanId: string | null;
}

export interface CreditPackage {
  id: string;
  name: string;
  credits: number;
  billing: 'one_time' | 'monthly' | 'annual';
  prices: PackagePrice[];
}

interface Row {
  id: string;
  name: string;
  credits: number;
  billing: CreditPackage['billing'];
  prices: {
    provider: PackagePrice['provider'];
    currency: string;
    amount_cents: number;
    paypal_plan_id: string | null;
  }[];
}

const SELECT =
  `
  SELECT p.id, p.name, p.credits, p.billing,
         coalesce(json_agg(json_build_object('provider', pr.provider, 'currency', pr.currency, ` +
  `'amount_cents', pr.amount_cents,
                  'paypal_plan_id', pr.paypal_plan_id) ORDER BY pr.id) FILTER (WHERE pr.id IS NOT NULL), '[]') AS prices
  FROM credit_packages p LEFT JOIN package_prices pr ON pr.package_id = p.id`;

const toPackage = (r: Row): CreditPackage => ({
  id: r.id,
  name: r.name,
  credits: Number(r.credits),
  billing: r.billing,
  prices: r.prices.map((p) => ({
    provider: p.provider,
    currency: p.currency,
    amountCents: Number(p.amount_cents),
    paypalPlanId: p.paypal_plan_id,
  })),
});

/** Credit packages and their provider prices (seeded by migration 006). */
export function createPackageStore(pool: Pool) {
  const one = async (where: string, params: unknown[], db: Pool | PoolClient): Promise<CreditPackage | null> => {
    const { rows } = await db.query<Row>(`${SELECT} WHERE ${where} GROUP BY p.id`, params);
    return rows[0] ? toPackage(rows[0]) : null;
  };
  return {
    /** `db`: the caller's transaction when it holds one (never a second connection from inside one). */
    async listActive(db: Pool | PoolClient = pool): Promise<CreditPackage[]> {
      const { rows } = await db.query<Row>(`${SELECT} WHERE p.active GROUP BY p.id ORDER BY p.sort_order, p.id`);
      return rows.map(toPackage);
    },

    findById: (id: string, db: Pool | PoolClient = pool) => one('p.id = $1', [id], db),

    /** The package a PayPal billing plan sells. */
    findByPayPalPlan: (planId: string, db: Pool | PoolClient = pool) =>
      one(`p.id = (SELECT package_id FROM package_prices WHERE paypal_plan_id = $1)`, [planId], db),

    /** The package whose PayPal price is exactly this amount (a sale names no plan); null when none or ambiguous. */
    async findByPayPalAmount(
      currency: string,
      amountCents: number,
      db: Pool | PoolClient = pool,
    ): Promise<CreditPackage | null> {
      const { rows } = await db.query<{ package_id: string }>(
        `SELECT DISTINCT package_id FROM package_prices WHERE provider = 'paypal' ` +
          `AND currency = $1 AND amount_cents = $2`,
        [currency, amountCents],
      );
      return rows.length === 1 ? one('p.id = $1', [rows[0]?.package_id], db) : null;
    },
  };
}

export type PackageStore = ReturnType<typeof createPackageStore>;

export const payfastPrice = (pkg: CreditPackage): PackagePrice | undefined =>
  pkg.prices.find((p) => p.provider === 'payfast');
