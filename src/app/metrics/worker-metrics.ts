import { Counter, Histogram, type Registry } from 'prom-client';
import type { HttpObserver } from '../../platform/http-client/http-client';

// Jobs take from tens of milliseconds (lists only) to minutes (a crawlTimeout of 120 s, retries).
const JOB_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/**
 * What the worker process counts: jobs finishing (and how long they took since submission), credits
 * consumed and granted by payments, what each provider event did, chain-provider calls and crawls cut
 * short. Activities and chain clients receive this object (or a part of it) through their deps.
 */
export function createWorkerMetrics(registry: Registry) {
  const registers = [registry];
  const jobsCompleted = new Counter({
    name: 'chainscreen_jobs_completed_total',
    help: 'Screening jobs whose result was written to the mirror as completed, by api_type and chain',
    labelNames: ['api_type', 'chain'] as const,
    registers,
  });
  const jobsFailed = new Counter({
    name: 'chainscreen_jobs_failed_total',
    help: 'Screening jobs written to the mirror as failed, by api_type, chain and error code',
    labelNames: ['api_type', 'chain', 'code'] as const,
    registers,
  });
  const jobDuration = new Histogram({
    name: 'chainscreen_job_duration_seconds',
    help: 'Submission (job row created) to final mirror write, by api_type, chain and status',
    labelNames: ['api_type', 'chain', 'status'] as const,
    buckets: JOB_BUCKETS,
    registers,
  });
  const creditsConsumed = new Counter({
    name: 'chainscreen_credits_consumed_total',
    help: 'Credit units charged for completed jobs (a retried charge is counted once)',
    registers,
  });
  const creditsGranted = new Counter({
    name: 'chainscreen_credits_granted_total',
    help: 'Credit units granted by payment events, by source (paypal, payfast)',
    labelNames: ['source'] as const,
    registers,
  });
  const creditsRevoked = new Counter({
    name: 'chainscreen_credits_revoked_total',
    help: 'Credit units taken back by refunds and reversals, by source (paypal, payfast)',
    labelNames: ['source'] as const,
    registers,
  });
  const webhookEvents = new Counter({
    name: 'chainscreen_webhook_events_total',
    help: 'Provider events processed by the worker, by provider and what they did: granted, revoked, applied, logged, ignored, rejected, or duplicate (done before)',
    labelNames: ['provider', 'outcome'] as const,
    registers,
  });
  const chainRequests = new Counter({
    name: 'chainscreen_chain_requests_total',
    help: 'Requests sent to chain data providers (each retry counts), by provider',
    labelNames: ['provider'] as const,
    registers,
  });
  const chainErrors = new Counter({
    name: 'chainscreen_chain_request_errors_total',
    help: 'Chain provider requests that produced no value, by provider and kind: rate_limited, transient (timeout, network, 5xx: retried), refused (final)',
    labelNames: ['provider', 'kind'] as const,
    registers,
  });
  const crawlTruncations = new Counter({
    name: 'chainscreen_crawl_truncations_total',
    help: 'Exposure crawls cut short, by chain and reason (deadline, request_budget, node_budget, no_address_index); one analysis may count several reasons',
    labelNames: ['chain', 'reason'] as const,
    registers,
  });

  const chainCalls: HttpObserver = {
    attempted: (provider) => chainRequests.inc({ provider }),
    failed: (provider, kind) => chainErrors.inc({ provider, kind }),
  };

  return {
    registry,
    /** Handed to the chain clients: counts every request and every failed one per provider. */
    chainCalls,
    jobFinished(job: { apiType: string; chain: string; status: 'completed' | 'failed'; errorCode: string | null; seconds: number }): void {
      if (job.status === 'completed') jobsCompleted.inc({ api_type: job.apiType, chain: job.chain });
      else jobsFailed.inc({ api_type: job.apiType, chain: job.chain, code: job.errorCode ?? 'UNKNOWN' });
      jobDuration.observe({ api_type: job.apiType, chain: job.chain, status: job.status }, job.seconds);
    },
    creditsConsumed(amount: number): void {
      if (amount > 0) creditsConsumed.inc(amount);
    },
    /** One processed provider event; a grant or a take-back also moves the credit counters. */
    webhookEvent(provider: string, result: { duplicate: boolean; outcome: string; credits: number }): void {
      webhookEvents.inc({ provider, outcome: result.duplicate ? 'duplicate' : result.outcome });
      if (result.duplicate) return;
      if (result.outcome === 'granted' && result.credits > 0) creditsGranted.inc({ source: provider }, result.credits);
      if (result.outcome === 'revoked' && result.credits < 0) creditsRevoked.inc({ source: provider }, -result.credits);
    },
    crawlCutShort(chain: string, reasons: string[]): void {
      for (const reason of reasons) crawlTruncations.inc({ chain, reason });
    },
  };
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;
