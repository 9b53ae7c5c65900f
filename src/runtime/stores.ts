import type { Pool } from 'pg';
import { createActivityHistoryStore } from '../db/activity-history';
import { createCreditStore } from '../db/credits';
import { createJobStore } from '../db/jobs';
import { createUserStore } from '../db/users';

/** Every Postgres-backed store over one pool. */
export function createStores(pool: Pool) {
  return {
    users: createUserStore(pool),
    credits: createCreditStore(pool),
    jobs: createJobStore(pool),
    activityHistory: createActivityHistoryStore(pool),
  };
}

export type Stores = ReturnType<typeof createStores>;
