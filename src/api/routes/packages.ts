import { Router } from 'express';
import { formatCents } from '../../billing/money';
import type { CreditPackage, PackageStore } from '../../db/packages';

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

/** GET /api/v1/credits/packages: public, so a pricing page can show it before sign-in. */
export function createPackagesRouter(deps: { packages: PackageStore }): Router {
  const router = Router();
  router.get('/api/v1/credits/packages', async (_req, res) => {
    const packages = await deps.packages.listActive();
    res.json({ success: true, data: packages.map(packageView), meta: { total: packages.length, page: 1, limit: packages.length }, timestamp: new Date().toISOString() });
  });
  return router;
}
