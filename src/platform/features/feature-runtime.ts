import type { Client } from '@temporalio/client';
import type { Router } from 'express';
import type { Pool } from 'pg';
import type { Logger } from '../logging/logger';
import type { StartEventWorkflow } from '../webhooks/event-workflows';

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
}

/** The api process's runtime: it also starts workflows. */
export interface FeatureApiRuntime extends FeatureRuntime {
  readonly temporal: Client;
  /** Starts a provider event's one workflow: a redelivery is a duplicate, Temporal down is a 503 (retried). */
  readonly startEventWorkflow: StartEventWorkflow;
}

/** The routers a feature mounts, by where in the request pipeline they belong. */
export interface FeatureRoutes {
  /** Before the JSON body parser: webhook endpoints, which verify signatures over the raw bytes. */
  readonly webhooks?: Router;
  /** Under /api/v1, behind authentication (each route still requires its own scope). */
  readonly v1?: Router;
}

/** A feature's activities by their registered names (each name once across all features). */
export type FeatureActivities = Record<string, (...args: never[]) => Promise<unknown>>;
