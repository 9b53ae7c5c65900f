import { jwksResponse } from '../../platform/signing/jwks-route';
import { ok } from '../../platform/openapi/json-content';
import type { Paths } from '../../platform/openapi/json-schema';
import type { OperationContext } from '../../platform/openapi/operation-context';
import { PUBLIC } from '../../platform/openapi/security';
import { EXAMPLE_JWKS } from './examples';

/**
 * The keys that verify signed answers (served by the platform, src/platform/signing): described here, beside the
 * answers they sign, with the example key that verifies screening's example answers.
 */
export function evidenceOperations({ components }: OperationContext): Paths {
  return {
    '/.well-known/jwks.json': {
      get: {
        operationId: 'getEvidenceKeys',
        tags: ['Service'],
        summary: 'The public keys that verify signed screening answers (JWKS, RFC 7517)',
        description:
          'Every completed job answer carries `data.signature`: a detached JWS (EdDSA, Ed25519) over the RFC 8785 ' +
          'canonical JSON of `data.response`. This set holds the key that signs now first, then every key it ' +
          'replaced, so older answers keep verifying. Cacheable for 5 minutes; a verifier that meets an unknown ' +
          '`kid` fetches it again.',
        responses: { 200: ok('The key set', components.response('EvidenceKeySet', jwksResponse), EXAMPLE_JWKS) },
        security: PUBLIC,
      },
    },
  };
}
