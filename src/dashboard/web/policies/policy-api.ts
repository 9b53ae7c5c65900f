export const POLICIES_PATH = '/api/v1/policies';
export const DEFAULT_POLICY_PATH = `${POLICIES_PATH}/default`;
export const BOUNDS_PATH = `${POLICIES_PATH}/bounds`;
export const policyPath = (id: string): string => `${POLICIES_PATH}/${encodeURIComponent(id)}`;

/** The ids the API keeps for itself: `standard` names the shipped model, the others are routes of their own. */
export const RESERVED_POLICY_IDS = ['standard', 'default', 'bounds'];
/** POLICY_ID_PATTERN of src/screening/engine/scoring-policy.ts. */
export const POLICY_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
