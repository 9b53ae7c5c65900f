import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Configuration } from 'webpack';
import type { FeatureModule } from '../platform/features/feature-module';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../platform/temporal/workflow-interceptors';
import { FEATURES } from './features';

/**
 * Temporal bundles one file of workflows; each feature keeps its own (FeatureModule.workflows). This writes the one
 * file that re-exports them all, named by its content, so a new feature's workflows reach the bundle through the
 * feature list alone. Every worker, the tests' prebuilt bundle and the history recorder bundle it.
 */
export function workflowEntryFile(features: readonly FeatureModule[] = FEATURES): string {
  const files = features.flatMap((feature) => (feature.workflows ? [feature.workflows] : []));
  const text = `${files.map((file) => `export * from ${JSON.stringify(file)};`).join('\n')}\n`;
  const name = `${createHash('sha256').update(text).digest('hex').slice(0, 16)}.js`;
  // Outside the tree (a deployment may not write there): workflowBundleOptions tells the bundler where the project's
  // packages are, since none can be found from here.
  const dir = path.join(tmpdir(), 'chainscreen-workflow-entries');
  mkdirSync(dir, { recursive: true });
  const entry = path.join(dir, name);
  writeFileSync(entry, text);
  return entry;
}

/** The project's packages, where the bundler looks for @temporalio/workflow and the rest from the generated entry. */
const PACKAGES = path.join(__dirname, '..', '..', 'node_modules');

/** How every bundle of this service's workflows is built: the generated entry, the interceptors, the packages. */
export function workflowBundleOptions(features: readonly FeatureModule[] = FEATURES) {
  return {
    workflowsPath: workflowEntryFile(features),
    workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
    webpackConfigHook: (config: Configuration): Configuration => ({
      ...config,
      resolve: { ...config.resolve, modules: [...(config.resolve?.modules ?? ['node_modules']), PACKAGES] },
    }),
  };
}

type WorkflowFunction = (...args: never[]) => Promise<unknown>;

/**
 * Every workflow function by its type, loaded outside the sandbox (replay tests, the history recorder). Two
 * features exporting one name would make the bundle's `export *` drop both silently: refused here instead.
 */
export function allWorkflows(features: readonly FeatureModule[] = FEATURES): Record<string, WorkflowFunction> {
  const byType: Record<string, WorkflowFunction> = {};
  for (const feature of features) {
    if (!feature.workflows) continue;
    for (const [type, fn] of Object.entries(require(feature.workflows) as Record<string, unknown>)) {
      if (typeof fn !== 'function') continue;
      if (byType[type]) throw new Error(`workflow type ${type} is exported by two features (${feature.name})`);
      byType[type] = fn as WorkflowFunction;
    }
  }
  return byType;
}
