import { defineCounter } from '../../platform/metrics/metric-definition';

/** Every request the worker's chain clients send, each retry included (EVM nodes: per call). */
export const chainRequests = defineCounter({
  name: 'chainscreen_chain_requests_total',
  help: 'Requests sent to chain data providers (each retry counts), by provider',
  labelNames: ['provider'],
});

/** The chain requests that produced no value, by kind; always registered with chainRequests. */
export const chainRequestErrors = defineCounter({
  name: 'chainscreen_chain_request_errors_total',
  help:
    'Chain provider requests that produced no value, by provider and kind: ' +
    'rate_limited, transient (timeout, network, 5xx: retried), refused (final)',
  labelNames: ['provider', 'kind'],
});
