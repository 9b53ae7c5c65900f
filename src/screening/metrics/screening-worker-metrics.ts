import type { Registry } from 'prom-client';
import { creditsConsumed } from '../../billing';
import type { HttpObserver } from '../../platform/http-client/http-client';
import { registerAll } from '../../platform/metrics/metric-definition';
import { chainRequestErrors, chainRequests } from './chain-requests';
import { crawlTruncations } from './crawl-truncations';
import { finishedJobCounter } from './finished-jobs';
import type { ScreeningWorkerMetrics } from './ports';

/**
 * What the worker's screening counts on `registry`: jobs finishing (and how long they took since the submit),
 * credits consumed, crawls cut short, and every chain-provider call (the observer handed to the chain clients).
 */
export function screeningWorkerMetrics(registry: Registry): ScreeningWorkerMetrics & { chainCalls: HttpObserver } {
  const counted = registerAll(registry, { creditsConsumed, chainRequests, chainRequestErrors, crawlTruncations });
  return {
    jobFinished: finishedJobCounter(registry).jobFinished,
    creditsConsumed(amount) {
      if (amount > 0) counted.creditsConsumed.inc(amount);
    },
    crawlCutShort(chain, reasons) {
      for (const reason of reasons) counted.crawlTruncations.inc({ chain, reason });
    },
    chainCalls: {
      attempted: (provider) => counted.chainRequests.inc({ provider }),
      failed: (provider, kind) => counted.chainRequestErrors.inc({ provider, kind }),
    },
  };
}
