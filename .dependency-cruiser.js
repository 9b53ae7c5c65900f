/**
 * The layering, checked by `npm test` (npm run lint:deps) instead of kept in comments.
 * - workflows/ import only pure modules (deterministic code in Temporal's sandbox): their own files, the
 *   features' workflow-ids/workflow-types, the error vocabulary, search attributes, pricing and types;
 *   activities only as types.
 * - src/platform imports no feature.
 * - a feature imports another feature only through that feature's index.ts.
 * - no cycles.
 * src/app (the composition root), the entry points and test/ and bench/ may import anything.
 */
const FEATURES =
  '(screening|billing|identity|history|market|x402|lists|monitors|realtime|dashboard|batches|policies|custom-labels|entities|cases)';

/** What workflow code may load at run time: pure modules only. */
const PURE_FOR_WORKFLOWS = [
  '^workflows/',
  '^src/[^/]+/workflow-(ids|types)\\.ts$',
  '^src/platform/errors/(error-codes|app-error|temporal-failures)\\.ts$',
  '^src/platform/temporal/(search-attributes|http-request-memo)\\.ts$',
  '^src/screening/pricing\\.ts$',
  // A case's rule book, SLA and request checks: pure functions over plain data.
  '^src/cases/domain/',
  '^src/billing/payfast/payfast-event-id\\.ts$',
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
      name: 'workflows-import-only-pure-modules',
      severity: 'error',
      comment:
        'Workflow code is replayed in a sandbox and must be deterministic: no I/O, no Node builtins, no stores. ' +
        'Import types freely; at run time only the modules listed in PURE_FOR_WORKFLOWS.',
      from: { path: '^workflows/' },
      to: { dependencyTypesNot: ['type-only'], pathNot: PURE_FOR_WORKFLOWS },
    },
    {
      name: 'workflows-import-activities-as-types',
      severity: 'error',
      comment: 'Workflows call activities through proxyActivities<T>: the type only, never the implementation.',
      from: { path: '^workflows/' },
      to: { path: '^activities/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'platform-imports-no-feature',
      severity: 'error',
      comment: 'src/platform is what every feature uses; it must not depend on one.',
      from: { path: '^src/platform/' },
      to: { path: [`^src/${FEATURES}/`, '^src/app/', '^activities/', '^workflows/'] },
    },
    {
      name: 'feature-imports-feature-through-index',
      severity: 'error',
      comment: "Another feature's internals are its own: import what it exports from its index.ts.",
      from: { path: `^src/${FEATURES}/` },
      to: { path: `^src/${FEATURES}/`, pathNot: ['^src/$1/', `^src/${FEATURES}/index\\.ts$`] },
    },
    {
      name: 'activities-import-other-features-through-index',
      severity: 'error',
      comment: 'activities/<feature>.ts adapts its own feature; other features are reached through their index.ts.',
      from: { path: '^activities/([a-z0-9]+)' },
      to: { path: `^src/${FEATURES}/`, pathNot: ['^src/$1/', `^src/${FEATURES}/index\\.ts$`] },
    },
    {
      name: 'features-do-not-import-the-composition-root',
      severity: 'error',
      comment: 'src/app wires features together; a feature that imports it would depend on every other feature.',
      from: { path: [`^src/${FEATURES}/`, '^workflows/', '^activities/'] },
      to: { path: '^src/app/' },
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
