/** What other parts use of custom labels: the store (also the screening engine's CustomLabelLookup) and the routes. */
export { createCustomLabelStore, type CustomLabel, type CustomLabelStore } from './custom-labels-store';
export {
  createCustomLabelBody,
  createCustomLabelsRouter,
  customLabelCategories,
  type CustomLabelsRouterDeps,
} from './custom-labels-routes';
export { CustomLabelLimitReachedError } from './errors';
/** Answer shapes (the OpenAPI document reads them). */
export type { customLabelListResponse, customLabelResponse, customLabelSchema } from './custom-labels-views';
/** Custom labels' variables (cases count a true positive's blocklist entry against MAX_CUSTOM_LABELS_PER_ACCOUNT). */
export type { CustomLabelsConfig } from './config';
