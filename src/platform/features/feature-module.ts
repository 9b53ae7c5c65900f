/**
 * What a feature folder declares about itself, so that the composition root (src/app/features.ts) lists the
 * features and nothing else, and src/platform never names one. Each feature exports one FeatureModule from
 * its `module.ts`; every field is data (no connections, no side effects), so any process can load the list.
 * Fields are added here as the features take over their wiring from src/app and src/platform.
 */
export interface FeatureModule {
  /** The feature's folder name under src/. */
  readonly name: string;
}
