/** What other parts use of policies: the store (which is also screening's PolicyResolver) and the routes. */
export { createPolicyStore, type PolicyStore, type StoredPolicy } from './policies-store';
export { createPoliciesRouter, setDefaultPolicyBody, type PoliciesRouterDeps } from './policies-routes';
export { policyReferenceField } from './policy-id';
/** Answer shapes (the OpenAPI document and the dashboard read them). */
export type { policyBoundsResponse, policyListResponse, policyResponse, defaultPolicyResponse } from './policies-views';
export type { policySchema, policyBoundsSchema } from './policies-views';
