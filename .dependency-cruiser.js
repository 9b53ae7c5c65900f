/**
 * The layering, checked by `npm test` (npm run lint:deps) instead of kept in comments.
 * - A feature is any folder under src/ but platform/ and app/: a new folder is covered by every rule below
 *   without editing a list (test/unit/dependency-rules.test.ts proves it with probe files).
 * - A feature's `workflows.ts` and the modules it loads are pure (deterministic code in Temporal's sandbox): a pure
 *   module imports only pure modules at run time, so purity is checked along every path, not only the first step.
 * - A feature's Temporal entry points (`workflows.ts`, `*activities.ts`) are loaded by the composition root only:
 *   no feature code imports them at run time; workflows use activities through their types.
 * - src/platform imports no feature, no composition root, no entry point.
 * - a feature imports another feature only through that feature's index.ts, or its published Temporal contract
 *   (workflow-ids.ts, workflow-types.ts, error-codes.ts: the pure files other workflows need), and never imports
 *   the composition root (src/app) or an entry point (src/*.ts).
 * - no cycles.
 * src/app (the composition root), the entry points and test/ and bench/ may import anything.
 */

/** `^src/<feature>/`, capturing the feature's folder name as $1. */
const FEATURE = '^src/(?!platform/|app/)([^/]+)/';
const ANY_FEATURE = '^src/(?!platform/|app/)[^/]+/';
const FEATURE_INDEX = '^src/(?!platform/|app/)[^/]+/index\\.ts$';
/** What one feature publishes to other features' workflows: pure ids, types and error codes. */
const TEMPORAL_CONTRACT = '^src/(?!platform/|app/)[^/]+/(workflow-ids|workflow-types|error-codes)\\.ts$';
const WORKFLOWS = '^src/(?!platform/|app/)[^/]+/workflows\\.ts$';
const ACTIVITIES = '^src/(?!platform/|app/)[^/]+/[a-z0-9-]*activities\\.ts$';
/** A feature's declaration to the composition root, which hands its activity factory to the worker. */
const FEATURE_MODULE = '^src/(?!platform/|app/)[^/]+/module\\.ts$';
/** The entry points: the files directly under src/ (api.ts, worker.ts, start.ts ...). */
const ENTRY_POINT = '^src/[^/]+\\.ts$';

/** What workflow code may load at run time: pure modules only (and what they load, which must be pure too). */
const PURE_FOR_WORKFLOWS = [
  WORKFLOWS,
  TEMPORAL_CONTRACT,
  '^src/platform/errors/(error-table|error-codes|app-error|temporal-failures)\\.ts$',
  '^src/platform/temporal/(search-attributes|http-request-memo|workflow-context-interceptor)\\.ts$',
  '^src/screening/pricing\\.ts$',
  // The chain names (pure data), which screening's workflow-types.ts publishes to the freeze sync workflow.
  '^src/screening/chains/chain\\.ts$',
  // A case's rule book, SLA and request checks: pure functions over plain data.
  '^src/cases/domain/',
  '@temporalio/(workflow|common)',
];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle means two modules cannot be understood, tested or moved apart.',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'pure-modules-import-only-pure-modules',
      severity: 'error',
      comment:
        'Workflow code is replayed in a sandbox and must be deterministic: no I/O, no Node builtins, no stores. ' +
        'Import types freely; at run time a pure module loads only modules listed in PURE_FOR_WORKFLOWS, so a ' +
        'listed module that reaches pg, node: or a store along any path fails here.',
      from: { path: PURE_FOR_WORKFLOWS },
      to: { dependencyTypesNot: ['type-only', 'type-import'], pathNot: PURE_FOR_WORKFLOWS },
    },
    {
      name: 'workflows-import-activities-as-types',
      severity: 'error',
      comment: 'Workflows call activities through proxyActivities<T>: the type only, never the implementation.',
      from: { path: WORKFLOWS },
      to: { path: ACTIVITIES, dependencyTypesNot: ['type-only', 'type-import'] },
    },
    {
      name: 'platform-imports-no-feature',
      severity: 'error',
      comment: 'src/platform is what every feature uses; it must not depend on one.',
      from: { path: '^src/platform/' },
      to: { path: [ANY_FEATURE, '^src/app/', ENTRY_POINT] },
    },
    {
      name: 'composition-root-names-only-the-module-list',
      severity: 'error',
      comment:
        'src/app mounts and registers what the features declare in their module.ts; only the list of modules ' +
        '(src/app/features.ts) names them, so a new feature is one line there.',
      from: { path: '^src/app/', pathNot: '^src/app/features\\.ts$' },
      to: { path: ANY_FEATURE },
    },
    {
      name: 'feature-imports-feature-through-index',
      severity: 'error',
      comment:
        "Another feature's internals are its own: import what it exports from its index.ts, or (workflows) the " +
        'pure ids, types and error codes it publishes for them.',
      from: { path: FEATURE },
      to: { path: ANY_FEATURE, pathNot: ['^src/$1/', FEATURE_INDEX, TEMPORAL_CONTRACT] },
    },
    {
      name: 'features-do-not-import-temporal-entry-points',
      severity: 'error',
      comment:
        "A feature's workflows and activities are Temporal's entry into it, loaded by the worker through the " +
        'composition root; feature code that imported them would run them outside Temporal (types are fine).',
      from: { path: ANY_FEATURE, pathNot: [WORKFLOWS, ACTIVITIES, FEATURE_MODULE] },
      to: { path: [WORKFLOWS, ACTIVITIES], dependencyTypesNot: ['type-only', 'type-import'] },
    },
    {
      name: 'nothing-imports-the-composition-root-or-an-entry-point',
      severity: 'error',
      comment:
        'src/app wires features together and the entry points start processes; a feature that imported them ' +
        'would depend on every other feature.',
      from: { path: [ANY_FEATURE, '^src/platform/'] },
      to: { path: ['^src/app/', ENTRY_POINT] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },

    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
