import type { OpenApiTag, SecurityScheme } from '../../platform/features/feature-openapi';
import { ref } from '../../platform/openapi/error-shapes';
import type { Operation, Paths } from '../../platform/openapi/json-schema';

/** The scope an operation's security requires of an API key, if any. */
function requiredScopeOf(security: Array<Record<string, string[]>> | undefined): string | undefined {
  return security?.map((r) => r.apiKey?.[0]).find((s) => s !== undefined);
}

/** The 403s an operation may declare itself, and what each becomes once the scope refusal is added to it. */
const WITH_SCOPE_REFUSAL: Record<string, string> = {
  [ref('AdminRequired').$ref]: 'AdminRequiredOrInsufficientScope',
  [ref('TeamRoleRequired').$ref]: 'TeamRoleRequiredOrInsufficientScope',
};

/**
 * Every operation that requires a scope answers 403 INSUFFICIENT_SCOPE to a key without it; an admin-only one
 * also 403 INSUFFICIENT_PERMISSIONS, a team-role-gated one 403 INSUFFICIENT_TEAM_ROLE. Added here from the security
 * requirement, so no scoped operation lacks it.
 */
export function withScopeRefusals(paths: Paths): Paths {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item) as Operation[]) {
      if (!requiredScopeOf(operation.security)) continue;
      const existing = operation.responses[403] as { $ref?: string } | undefined;
      // An operation's own 403 (cases' four-eyes refusal) lists INSUFFICIENT_SCOPE among its codes itself.
      if (existing && existing.$ref === undefined) continue;
      const combined = existing ? WITH_SCOPE_REFUSAL[existing.$ref ?? ''] : 'InsufficientScope';
      if (!combined)
        throw new Error(`OpenAPI: ${operation.operationId} has a 403 other than AdminRequired or TeamRoleRequired`);
      operation.responses[403] = ref(combined);
    }
  }
  return paths;
}

/**
 * Every scheme the operations' security requirements name is declared by a feature (FeatureOpenApi.securitySchemes),
 * and every tag they name is a section of the docs page: both are named as text, so a misspelt one is refused here.
 */
export function checkSecurityAndTags(
  paths: Paths,
  schemes: Readonly<Record<string, SecurityScheme>>,
  tags: readonly OpenApiTag[],
): void {
  const sections = new Set(tags.map((tag) => tag.name));
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item) as Operation[]) {
      for (const requirement of operation.security) {
        for (const scheme of Object.keys(requirement)) {
          if (!Object.hasOwn(schemes, scheme))
            throw new Error(`OpenAPI: ${operation.operationId} names the unknown security scheme ${scheme}`);
        }
      }
      for (const tag of operation.tags ?? []) {
        if (!sections.has(tag)) throw new Error(`OpenAPI: ${operation.operationId} names the undeclared tag ${tag}`);
      }
    }
  }
}
