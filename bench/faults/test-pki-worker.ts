/**
 * The fault suite's worker process: `npm run worker` exactly, except that the activities re-check PayPal deliveries
 * against the test fixtures' certificate authority, as the suite's in-process api verifies them (PayPal's real
 * certificate host is out of reach here, and the worker refuses what it cannot check).
 */
import { runWorkerProcess } from '../../src/app/worker-process';
import { testPayPalVerifier } from '../../test/helpers/webhooks';

runWorkerProcess({ paypalVerifier: testPayPalVerifier() }).catch((err) => {
  process.stderr.write(`worker failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
