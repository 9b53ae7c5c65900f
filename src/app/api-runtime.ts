import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import type { Registry } from 'prom-client';
import type { AccountEventObserver } from '../platform/events/account-event';
import type { FeatureModule } from '../platform/features/feature-module';
import type { FeatureApiRuntime } from '../platform/features/feature-runtime';
import { errorFields, type Logger } from '../platform/logging/logger';
import { evidenceKeyRing } from '../platform/signing/evidence-key-ring';
import { createEventWorkflowStarter } from '../platform/webhooks/event-workflows';
import type { Config } from './config';
import { withPorts } from './feature-ports';
import { FEATURES } from './features';

/**
 * Every feature's observer as one: each is told in the list's order, and one that throws is logged and does not
 * keep the others (or the sockets) from the event.
 */
function allObservers(observers: readonly AccountEventObserver[], log: Logger): AccountEventObserver {
  const each = (tell: (observer: AccountEventObserver) => void) => {
    for (const observer of observers) {
      try {
        tell(observer);
      } catch (err) {
        log.warn('an account event observer failed', errorFields(err));
      }
    }
  };
  return {
    notified: (notice) => each((observer) => observer.notified?.(notice)),
    event: (event) => each((observer) => observer.event?.(event)),
    listening: (listening) => each((observer) => observer.listening?.(listening)),
  };
}

/**
 * The runtime an api process hands its features: its connections and config, its registry, the evidence keys it
 * signs with, the starter of provider event workflows, every feature's ports and account event observers.
 */
export function apiRuntime(
  deps: {
    config: Config;
    pool: Pool;
    temporal: Client;
    log: Logger;
    metrics: Registry;
    /** Tests: parts of the features' routes replaced, by the names their overrides types declare. */
    overrides?: object;
  },
  features: readonly FeatureModule[] = FEATURES,
): FeatureApiRuntime {
  const { config, pool, temporal, log } = deps;
  const observers: AccountEventObserver[] = [];
  const base = {
    config,
    pool,
    log,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    temporal,
    metrics: deps.metrics,
    overrides: { ...deps.overrides } as Readonly<Record<string, unknown>>,
    evidenceKeys: evidenceKeyRing(config.EVIDENCE_SIGNING_KEYS, pool),
    startEventWorkflow: createEventWorkflowStarter({ temporal, taskQueue: config.TEMPORAL_TASK_QUEUE, log }),
    accountEvents: allObservers(observers, log),
  };
  const runtime: FeatureApiRuntime = withPorts(base, features);
  for (const feature of features) if (feature.accountEvents) observers.push(feature.accountEvents(runtime));
  return runtime;
}
