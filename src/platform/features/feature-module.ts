import type { Server as HttpServer } from 'node:http';
import type { Pool } from 'pg';
import type { Logger } from '../logging/logger';
import type { ConfigSlice } from '../config/config-slice';
import type { AccountEventDeclaration, AccountEventObserver } from '../events/account-event';
import type { Check } from '../health/checks';
import type { ErrorTable } from '../errors/error-table';
import type { SchemaFolders } from '../db/schema-files';
import type { WebhookProviderDeclaration } from '../webhooks/webhook-provider';
import type { FeatureOpenApi } from './feature-openapi';
import type { FeaturePorts } from './feature-ports';
import type { FeatureActivities, FeatureApiRuntime, FeatureRoutes, FeatureRuntime } from './feature-runtime';

/**
 * What a feature folder declares about itself, so that the composition root (src/app/features.ts) lists the
 * features and nothing else, and src/platform never names one. Each feature exports one FeatureModule from
 * its `module.ts`; every field is data (no connections, no side effects), so any process can load the list.
 * Fields are added here as the features take over their wiring from src/app and src/platform.
 */
export interface FeatureModule {
  /** The feature's folder name under src/. */
  readonly name: string;
  /** The feature's environment variables and their rules, merged with the platform's into the one frozen config. */
  readonly config?: ConfigSlice;
  /**
   * The feature's SQL: its folders of numbered migrations and functions files (src/platform/db/README.md), applied
   * with every other feature's in one global order by file name.
   */
  readonly schema?: SchemaFolders;
  /**
   * Loads what the feature's tables need before anything serves (reference data files, a bootstrap account), after
   * every feature's migrations, on a pool without the serving timeouts; idempotent (a file loaded before is skipped).
   */
  readonly prepare?: (deps: { pool: Pool; config: Readonly<Record<string, unknown>>; log: Logger }) => Promise<void>;
  /** The webhook endpoints the feature serves, each with the provider its deliveries are counted and stored under. */
  readonly webhookProviders?: readonly WebhookProviderDeclaration[];
  /**
   * The codes the feature raises and answers (its error-codes.ts), each declared once: the composition root lists
   * them with the platform's (src/app/declared-error-codes.ts) for the OpenAPI document and its checks.
   */
  readonly errors?: ErrorTable;
  /** The feature's routes as OpenAPI operations, with their examples (src/app/openapi/document.ts assembles them). */
  readonly openapi?: FeatureOpenApi;
  /**
   * The file that exports the feature's workflow functions (its `workflows.ts`). It is bundled into Temporal's
   * sandbox, so it and everything it loads must be pure (the import rules check it); the worker bundles every
   * feature's file through one generated entry (src/app/workflow-entry.ts).
   */
  readonly workflows?: string;
  /** The feature's routers, built over the api process's runtime (src/app mounts each where its kind belongs). */
  readonly routes?: (runtime: FeatureApiRuntime) => FeatureRoutes;
  /**
   * The metrics the feature counts (the definitions in its `metrics/`, registered on the process's registry when its
   * routes and activities are built), by name: test/unit/metric-declarations.test.ts holds them to the definitions and
   * to the operators' table in docs/operations.md.
   */
  readonly metrics?: readonly string[];
  /**
   * The account events the feature writes (its `realtime_notify` calls, in the transaction that made them true):
   * each reaches the owner's sockets and every feature's observers. An event is declared by the one feature that
   * writes it (test/unit/socket-events.test.ts reads the calls).
   */
  readonly socketEvents?: readonly AccountEventDeclaration[];
  /** What the feature does with the account events every api instance hears (src/platform/events). */
  readonly accountEvents?: (runtime: FeatureApiRuntime) => AccountEventObserver;
  /**
   * What the feature attaches to the api's HTTP server itself (websocket upgrades), with how to close it; called once
   * the routes are built, before the server listens.
   */
  readonly attach?: (runtime: FeatureApiRuntime, server: HttpServer) => Promise<{ close(): Promise<void> }>;
  /**
   * Checks the operators' /readyz reports without failing readiness (the api still serves): e.g. a reference list
   * older than its maximum age.
   */
  readonly advisories?: (runtime: FeatureApiRuntime) => Record<string, Check>;
  /**
   * The ports the feature offers the others (src/platform/features/feature-ports.ts), built over the process's
   * runtime before any routes or activities are; each port is provided by one feature.
   */
  readonly provides?: (runtime: FeatureRuntime) => Partial<FeaturePorts>;
  /** The feature's activities, built over the worker process's runtime and registered by every worker. */
  readonly activities?: (runtime: FeatureRuntime) => FeatureActivities;
  /**
   * Creates the feature's Temporal schedules (and long-running workflows), or brings them up to date with this
   * config (one turned off is removed): every worker calls it at start, once its worker polls.
   */
  readonly schedules?: (runtime: FeatureRuntime) => Promise<void>;
}
