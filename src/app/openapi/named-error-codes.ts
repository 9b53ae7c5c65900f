import { declared } from '../declared-error-codes';

/**
 * The error codes a finished document names: the `enum` (or `const`) of every `code` property of its schemas. The
 * features build their error responses from src/platform/openapi/error-shapes.ts, which cannot reach the declared
 * codes (they are the composition root's), so the document is checked once it is built instead.
 */
export function namedErrorCodes(document: unknown): string[] {
  const codes = new Set<string>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const code = (node as { properties?: { code?: { enum?: unknown[]; const?: unknown } } }).properties?.code;
    for (const value of [...(code?.enum ?? []), code?.const]) if (typeof value === 'string') codes.add(value);
    for (const child of Object.values(node)) visit(child);
  };
  visit(document);
  return [...codes];
}

/** Refuses a document that names a code no error table declares (declared-error-codes.ts). */
export function checkNamedErrorCodes(document: unknown): void {
  declared(namedErrorCodes(document));
}
