import { type BillingConfig, payfastProcessUrl } from '../billing';
import type { IdentityConfig } from '../identity';
import type { FeatureApiRuntime, FeatureRoutes } from '../platform/features/feature-runtime';
import { loadDashboardAssetsOnce } from './bundle';
import { createDashboardRouter } from './dashboard-router';

/** The account dashboard (HTML + bundle from memory) at /app; it calls the same /api/v1 routes as any client. */
export function dashboardRoutes(runtime: FeatureApiRuntime): FeatureRoutes {
  const config = runtime.config as Pick<IdentityConfig, 'CLERK_JWT_KEY'> & Pick<BillingConfig, 'PAYFAST_MODE'>;
  return {
    public: createDashboardRouter({
      // The build starts now, so the first page load does not wait for it.
      assets: loadDashboardAssetsOnce(runtime.log),
      // The api accepts Clerk session tokens exactly when CLERK_JWT_KEY is set: the sign-in form offers them only then.
      sessionJwtEnabled: Boolean(config.CLERK_JWT_KEY),
      formTargets: [new URL(payfastProcessUrl(config.PAYFAST_MODE)).origin],
    }),
  };
}
