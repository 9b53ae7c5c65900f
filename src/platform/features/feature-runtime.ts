import type { Client } from '@temporalio/client';
import type { Request, Router } from 'express';
import type { Pool } from 'pg';
import type { Registry } from 'prom-client';
import type { AccountEventObserver } from '../events/account-event';
import type { Logger } from '../logging/logger';
import type { SigningKeyRing } from '../signing/key-ring';
import type { StartEventWorkflow } from '../webhooks/event-workflows';
import type { FeaturePorts } from './feature-ports';

/**
 * What the composition root hands a feature's runtime parts (FeatureModule.routes and .activities): the process's
 * shared connections and the one frozen config, of which each feature reads its own slice's keys (typed by the
 * slice: `runtime.config as SliceConfig<typeof slice>`).
 */
export interface FeatureRuntime {
  readonly config: Readonly<Record<string, unknown>>;
  readonly pool: Pool;
  readonly log: Logger;
  /** The task queue this process's workflows and activities run on. */
  readonly taskQueue: string;
  /** The process's client: a feature starts, signals and updates its workflows with it. */
  readonly temporal: Client;
  /**
   * The process's registry, served at /metrics: a feature registers the metrics it counts on it (registering a
   * definition again returns the same handle, so a route and a service of one process share a counter).
   */
  readonly metrics: Registry;
  /**
   * What tests replace in the parts a feature builds itself (trust anchors, fetchers, clocks), by the names the
   * feature's own overrides type declares. Empty outside tests: production builds everything from the config.
   */
  readonly overrides: Readonly<Record<string, unknown>>;
  /** What the features provide each other (feature-ports.ts): every module's `provides`, merged by the root. */
  readonly ports: FeaturePorts;
  /** The keys this process signs evidence with (answers, case files), published at /.well-known/jwks.json. */
  readonly evidenceKeys: SigningKeyRing;
}

/** The api process's runtime: it also starts provider event workflows. */
export interface FeatureApiRuntime extends FeatureRuntime {
  /** Starts a provider event's one workflow: a redelivery is a duplicate, Temporal down is a 503 (retried). */
  readonly startEventWorkflow: StartEventWorkflow;
  /** Every feature's account event observer (FeatureModule.accountEvents), as one: what the relay tells. */
  readonly accountEvents: AccountEventObserver;
}

/** The routers a feature mounts, by where in the request pipeline they belong. */
export interface FeatureRoutes {
  /** Before the JSON body parser: webhook endpoints, which verify signatures over the raw bytes. */
  readonly webhooks?: Router;
  /** Under /api/v1, behind authentication (each route still requires its own scope). */
  readonly v1?: Router;
  /**
   * The requests whose body the feature reads itself (a body past the general 256 kB limit, read only after
   * authentication and its scope check): the general JSON parser leaves them alone.
   */
  readonly readsOwnBody?: (req: Request) => boolean;
  /**
   * Public pages and their assets (no account, no /api/v1 prefix): after the JSON parser and the unsafe-input check,
   * before the health probes and the authenticated routers.
   */
  readonly public?: Router;
}

/** A feature's activities by their registered names (each name once across all features). */
export type FeatureActivities = Record<string, (...args: never[]) => Promise<unknown>>;
