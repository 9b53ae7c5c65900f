import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Worker } from '@temporalio/worker';
import { bareActivities } from './activities';

const quiet = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export interface BareWorkflows {
  /** Starts one bare workflow and resolves when Temporal has accepted it (what a webhook acknowledgement waits for). */
  start(): Promise<void>;
  /** Starts one bare workflow and resolves with its completion. */
  execute(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A worker for the bare workflow on a task queue of its own, on the same dev server as the service,
 * with the activity concurrency the screening worker gets (its pool size).
 */
export async function startBareWorkflows(options: {
  client: Client;
  address: string;
  maxConcurrentActivities: number;
}): Promise<BareWorkflows> {
  const taskQueue = `bench-bare-${randomUUID()}`;
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    taskQueue,
    workflowBundle: await bundleWorkflowCode({ workflowsPath: require.resolve('./workflows'), logger: quiet }),
    activities: bareActivities,
    maxConcurrentActivityTaskExecutions: options.maxConcurrentActivities,
  });
  const running = worker.run();
  const startOptions = () => ({ taskQueue, workflowId: `bench-bare:${randomUUID()}` });
  return {
    async start() {
      await options.client.workflow.start('bareScreeningWorkflow', startOptions());
    },
    async execute() {
      await options.client.workflow.execute('bareScreeningWorkflow', startOptions());
    },
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}
