import type { Registry } from 'prom-client';
import { registerAll } from '../../platform/metrics/metric-definition';
import { jobsFailed } from './jobs-failed';
import { jobsSubmitted } from './jobs-submitted';
import type { JobSubmitMetrics } from './ports';

/**
 * What the api counts of submits on `registry`: accepted jobs, and jobs it fails itself (their workflow never
 * started).
 */
export function jobSubmitMetrics(registry: Registry): JobSubmitMetrics {
  const counted = registerAll(registry, { jobsSubmitted, jobsFailed });
  return {
    jobSubmitted(apiType, chain) {
      counted.jobsSubmitted.inc({ api_type: apiType, chain });
    },
    jobFailed(apiType, chain, code) {
      counted.jobsFailed.inc({ api_type: apiType, chain, code });
    },
  };
}
