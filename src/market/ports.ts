import type { ChainCapability } from '../screening';

/** What the capabilities route lists beside the market data. */
declare module '../platform/features/feature-ports' {
  interface FeaturePorts {
    /** The screening feature: every chain it knows and what this deployment's endpoints let it do there. */
    chainCapabilities: () => ChainCapability[];
  }
}
