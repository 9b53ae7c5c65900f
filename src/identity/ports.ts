import type { PoolClient } from 'pg';

/** What an account's deactivation (a deleted user or organization) needs of the features that hold its things. */
declare module '../platform/features/feature-ports' {
  interface FeaturePorts {
    /** The monitors feature: stops the account's live monitors in the deactivation's transaction. */
    accountMonitors: {
      /** Marks every live monitor deleted and returns their ids (their workflows are then sent `stop`). */
      stopAll(client: PoolClient, userId: string): Promise<string[]>;
      /** The monitors the deactivation stopped, read again by a retry that finds it applied. */
      stoppedWithAccount(client: PoolClient, userId: string): Promise<string[]>;
    };
    /** The billing feature: gives back every credit hold of the account (its running jobs will charge nothing). */
    accountHolds: { releaseAll(client: PoolClient, userId: string): Promise<number> };
  }
}
