import { invalidParameter } from '../platform/http/errors';
import { POLICY_ID_PATTERN, RESERVED_POLICY_IDS } from '../screening';

export const POLICY_ID_EXPECTED = "1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit";

/**
 * Names no policy can take: 'standard' and 'default' mean something wherever a policy is named, and 'default' and
 * 'bounds' are routes of their own under /policies. Compared case-insensitively, because Express matches routes
 * case-insensitively: a policy "Default" could never be read back.
 */
const RESERVED = new Set<string>([...RESERVED_POLICY_IDS, 'bounds']);

/** The id of PUT /policies/:id, or a 400 naming `id`. */
export function newPolicyIdOrThrow(id: string): string {
  if (!POLICY_ID_PATTERN.test(id)) throw invalidParameter('id', POLICY_ID_EXPECTED);
  if (RESERVED.has(id.toLowerCase()))
    throw invalidParameter(
      'id',
      `an id other than ${[...RESERVED].join(', ')}`,
      `Invalid parameter "id": "${id}" is reserved (${[...RESERVED].join(', ')} cannot be policy ids)`,
    );
  return id;
}

/** A policy named by a monitor (or any request that names one): screening's own field, one definition. */
export { policyReferenceField } from '../screening';
