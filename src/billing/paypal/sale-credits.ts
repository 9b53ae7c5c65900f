/**
 * What a PayPal sale pays for: the credits of the plan at the price actually charged. The amount names the plan;
 * an amount that is no plan's price is a prorated or other manual charge (PayPal never prorates by itself: a revised
 * plan is billed from the next cycle), which buys credits at the best rate any plan sells them in that currency.
 */

/** A PayPal price of a credit package. */
export interface PayPalPlanPrice {
  packageId: string;
  packageName: string;
  credits: number;
  currency: string;
  amountCents: number;
}

export interface SaleCredits {
  packageId: string;
  packageName: string;
  /** The credits the sale paid for: what its refunds and disputes take back. */
  credits: number;
  /** True when the amount is exactly a plan's price (a billing cycle); false for a prorated charge. */
  planPriced: boolean;
}

/**
 * The plan the amount is the price of: the subscription's own plan first (two plans may share a price), else the one
 * package with that price. A prorated amount buys floor(credits × amount / price) of the plan with the most credits
 * per cent, so no charge ever buys credits cheaper than a plan does. Null when no plan is priced in that currency.
 */
export function creditsForSale(
  amountCents: number,
  currency: string,
  prices: readonly PayPalPlanPrice[],
  subscriptionPackageId: string | null,
): SaleCredits | null {
  const inCurrency = prices.filter((p) => p.currency === currency);
  const exact = inCurrency.filter((p) => p.amountCents === amountCents);
  const own = exact.find((p) => p.packageId === subscriptionPackageId);
  const packages = new Set(exact.map((p) => p.packageId));
  const plan = own ?? (packages.size === 1 ? exact[0] : undefined);
  if (plan)
    return { packageId: plan.packageId, packageName: plan.packageName, credits: plan.credits, planPriced: true };
  if (exact.length > 0) return null;
  const best = inCurrency.reduce<PayPalPlanPrice | null>(
    (a, p) => (a === null || p.credits * a.amountCents > a.credits * p.amountCents ? p : a),
    null,
  );
  if (!best) return null;
  return {
    packageId: best.packageId,
    packageName: best.packageName,
    credits: Math.floor((best.credits * amountCents) / best.amountCents),
    planPriced: false,
  };
}
