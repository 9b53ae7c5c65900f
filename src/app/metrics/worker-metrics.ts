import type { Registry } from 'prom-client';
import { creditsConsumed } from '../../billing/metrics/credits-consumed';
import { creditsGranted } from '../../billing/metrics/credits-granted';
import { creditsRevoked } from '../../billing/metrics/credits-revoked';
import type { HttpObserver } from '../../platform/http-client/http-client';
import { registerAll } from '../../platform/metrics/metric-definition';
import { webhookEvents } from '../../platform/metrics/webhook-events';
import { chainRequestErrors, chainRequests } from '../../screening/metrics/chain-requests';
import { crawlTruncations } from '../../screening/metrics/crawl-truncations';
import { jobDuration } from '../../screening/metrics/job-duration';
import { jobsCompleted } from '../../screening/metrics/jobs-completed';
import { jobsFailed } from '../../screening/metrics/jobs-failed';
import type { FinishedJob } from '../../screening/metrics/ports';

/**
 * What the worker process counts: jobs finishing (and how long they took since submission), credits
 * consumed and granted by payments, what each provider event did, chain-provider calls and crawls cut
 * short. Activities and chain clients receive this object (or a part of it) through their deps.
 */
export function createWorkerMetrics(registry: Registry) {
  const counted = registerAll(registry, {
    jobsCompleted,
    jobsFailed,
    jobDuration,
    creditsConsumed,
    creditsGranted,
    creditsRevoked,
    webhookEvents,
    chainRequests,
    chainRequestErrors,
    crawlTruncations,
  });

  const chainCalls: HttpObserver = {
    attempted: (provider) => counted.chainRequests.inc({ provider }),
    failed: (provider, kind) => counted.chainRequestErrors.inc({ provider, kind }),
  };

  return {
    registry,
    /** Handed to the chain clients: counts every request and every failed one per provider. */
    chainCalls,
    jobFinished(job: FinishedJob): void {
      const labels = { api_type: job.apiType, chain: job.chain };
      if (job.status === 'completed') counted.jobsCompleted.inc(labels);
      else counted.jobsFailed.inc({ ...labels, code: job.errorCode ?? 'UNKNOWN' });
      counted.jobDuration.observe({ ...labels, status: job.status }, job.seconds);
    },
    creditsConsumed(amount: number): void {
      if (amount > 0) counted.creditsConsumed.inc(amount);
    },
    /** One processed provider event; a grant or a take-back also moves the credit counters. */
    webhookEvent(provider: string, result: { duplicate: boolean; outcome: string; credits: number }): void {
      counted.webhookEvents.inc({ provider, outcome: result.duplicate ? 'duplicate' : result.outcome });
      if (result.duplicate) return;
      const source = { source: provider };
      if (result.outcome === 'granted' && result.credits > 0) counted.creditsGranted.inc(source, result.credits);
      if (result.outcome === 'revoked' && result.credits < 0) counted.creditsRevoked.inc(source, -result.credits);
    },
    crawlCutShort(chain: string, reasons: string[]): void {
      for (const reason of reasons) counted.crawlTruncations.inc({ chain, reason });
    },
  };
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;
