import type { WebhookProvider, WebhookProviderDeclaration } from './webhook-provider';

/**
 * Each declared webhook path and the provider it serves. Two declarations of one path, or of one provider, are a
 * wiring mistake (a delivery counted under the wrong provider, two features sharing one `webhook_events` key space),
 * so they stop the process at start-up instead.
 */
export function webhookProvidersByPath(
  declarations: readonly WebhookProviderDeclaration[],
): ReadonlyMap<string, WebhookProvider> {
  const byPath = new Map<string, WebhookProvider>();
  const providers = new Set<WebhookProvider>();
  for (const { path, provider } of declarations) {
    if (byPath.has(path)) throw new Error(`webhook path ${path} is declared twice`);
    if (providers.has(provider)) throw new Error(`webhook provider ${provider} is declared twice`);
    byPath.set(path, provider);
    providers.add(provider);
  }
  return byPath;
}
