/** `npm run worker`: a Temporal worker for the screening task queue, against DATABASE_URL and TEMPORAL_ADDRESS. */
import { runWorkerProcess } from './app/worker-process';

runWorkerProcess().catch((err) => {
  process.stderr.write(`worker failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
