import type { TestStack } from '../../test/helpers/test-stack';
import type { BareWorkflows } from '../bare/worker';
import type { BareInsertServer } from '../bare/express-insert';
import type { BenchConfig } from './bench-config';

/** What every figure gets: the one stack of the run, its baselines, the sizes, and a progress line. */
export interface BenchContext {
  stack: TestStack;
  bare: BareWorkflows;
  bareInsert: BareInsertServer;
  config: BenchConfig;
  /** The history webhook's shared secret on this stack, and the (Clerk) user its records name. */
  historyWebhookSecret: string;
  historyClerkUserId: string;
  progress(line: string): void;
}
