import { Router } from 'express';
import { z } from 'zod';
import { formatCents } from './money';
import type { CreditPackage, PackageStore } from './packages-store';

export const packageView = (p: CreditPackage) => ({
  id: p.id,
  name: p.name,
  credits: p.credits,
  billing: p.billing,
  prices: p.prices.map((price) => ({
    provider: price.provider,
    currency: price.currency,
    amount: formatCents(price.amountCents),
    ...(price.paypalPlanId ? { paypalPlanId: price.paypalPlanId } : {}),
  })),
});

export const packageSchema = z.object({
  id: z.string(),
  name: z.string(),
  credits: z.int().min(1),
  billing: z.enum(['one_time', 'monthly', 'annual']),
  prices: z.array(
    z.object({
      provider: z.enum(['paypal', 'payfast']),
      currency: z.string().length(3),
      amount: z
        .string()
        .regex(/^\d+\.\d{2}$/)
        .meta({ description: 'Decimal amount with two places' }),
      paypalPlanId: z.string().optional(),
    }),
  ),
});
export const packageListResponse = z.object({
  success: z.literal(true),
  data: z.array(packageSchema),
  meta: z.object({ total: z.int().min(0), page: z.int(), limit: z.int().min(0) }),
  timestamp: z.iso.datetime(),
});

/** GET /api/v1/credits/packages: public, so a pricing page can show it before sign-in. */
export function createPackagesRouter(deps: { packages: PackageStore }): Router {
  const router = Router();
  router.get('/api/v1/credits/packages', async (_req, res) => {
    const packages = await deps.packages.listActive();
    res.json({
      success: true,
      data: packages.map(packageView),
      meta: { total: packages.length, page: 1, limit: packages.length },
      timestamp: new Date().toISOString(),
    });
  });
  return router;
}
