import { execFile } from 'node:child_process';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/* eslint-disable @typescript-eslint/no-explicit-any */
export type OpenApiDoc = any;

/**
 * Checks real answers against the OpenAPI document: the status must be one the operation lists, the
 * body must match the schema for that status and content type (ajv, JSON Schema 2020-12 with
 * formats), and every header the response marks required must be present.
 */
export interface DocumentValidator {
  /** The dereferenced document (no $ref left). */
  doc: OpenApiDoc;
  /** The document path template a concrete path matches, e.g. /api/v1/kyt/job/{requestId}. */
  templateOf(method: string, concretePath: string): string;
  /** Throws, naming the operation and the problem, unless the answer matches the document. */
  expectMatches(
    method: string,
    concretePath: string,
    status: number,
    body: unknown,
    headers?: Headers | Record<string, string>,
  ): void;
  /** Every (METHOD template status) checked so far. */
  checked: Set<string>;
  /** How many answers were checked. */
  readonly validated: number;
}

/**
 * @apidevtools/swagger-parser's validate(), run in a child node process: it loads
 * @apidevtools/json-schema-ref-parser, an ES module, which jest's CommonJS runtime cannot require
 * (plain Node 20 can). Resolves when the document is valid OpenAPI; rejects with the parser's message.
 */
export function validateWithSwaggerParser(document: OpenApiDoc): Promise<void> {
  const script =
    `
    const SwaggerParser = require('@apidevtools/swagger-parser');
    let text = '';
    process.stdin.on('data', (d) => (text += d)).on('end', () =>
      SwaggerParser.validate(JSON.parse(text)).then(() => process.stdout.write('valid'), ` +
    `(e) => { process.stdout.write(String(e && e.message)); process.exitCode = 1; }));`;
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['-e', script],
      { cwd: process.cwd(), maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`swagger-parser: ${stdout || stderr || err.message}`));
        else if (stdout !== 'valid') reject(new Error(`swagger-parser said: ${stdout}`));
        else resolve();
      },
    );
    child.stdin?.end(JSON.stringify(document));
  });
}

/**
 * The document with every local `$ref` ("#/components/…") replaced by what it points to (shared objects,
 * no cycles here).
 */
export function dereference(document: OpenApiDoc): OpenApiDoc {
  const root = structuredClone(document);
  const pointer = (ref: string): unknown =>
    ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<any>((node, part) => {
        if (node === undefined || !(part in node)) throw new Error(`unresolvable $ref ${ref}`);
        return node[part];
      }, root);
  const resolve = (node: unknown, seen: string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => resolve(n, seen));
    if (node === null || typeof node !== 'object') return node;
    const obj = node as Record<string, unknown>;
    if (typeof obj.$ref === 'string') {
      if (!obj.$ref.startsWith('#/')) throw new Error(`non-local $ref ${obj.$ref}`);
      if (seen.includes(obj.$ref)) throw new Error(`circular $ref ${obj.$ref}`);
      const { $ref, ...siblings } = obj;
      const target = resolve(pointer($ref as string), [...seen, $ref as string]) as Record<string, unknown>;
      return Object.keys(siblings).length ? { ...target, ...(resolve(siblings, seen) as object) } : target;
    }
    return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, resolve(v, seen)]));
  };
  return resolve(root, []);
}

export async function documentValidator(document: OpenApiDoc): Promise<DocumentValidator> {
  const doc = dereference(document);
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, validateFormats: true });
  addFormats(ajv);
  const compiled = new Map<unknown, ValidateFunction>();
  const compile = (schema: object): ValidateFunction => {
    let fn = compiled.get(schema);
    if (!fn) {
      fn = ajv.compile(schema);
      compiled.set(schema, fn);
    }
    return fn;
  };
  const templates = Object.keys(doc.paths).map((template) => ({
    template,
    regexp: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
    literal: !template.includes('{'),
  }));
  const checked = new Set<string>();
  let validated = 0;

  const templateOf = (method: string, concretePath: string): string => {
    const path = concretePath.split('?')[0] as string;
    // A literal path wins over a template that also matches it.
    const matches = templates.filter((t) => t.regexp.test(path) && doc.paths[t.template][method.toLowerCase()]);
    const match = matches.find((t) => t.literal) ?? matches[0];
    if (!match) throw new Error(`the document has no operation for ${method.toUpperCase()} ${path}`);
    return match.template;
  };

  return {
    doc,
    checked,
    get validated() {
      return validated;
    },
    templateOf,
    expectMatches(method, concretePath, status, body, headers = {}) {
      const template = templateOf(method, concretePath);
      const operation = doc.paths[template][method.toLowerCase()];
      const where = `${method.toUpperCase()} ${template} → ${status}`;
      const response = operation.responses[String(status)];
      if (!response) {
        throw new Error(
          `${where}: status ${status} is not in the document (it lists ` +
            `${Object.keys(operation.responses).join(', ')}); body ${JSON.stringify(body).slice(0, 300)}`,
        );
      }
      const header = (name: string): string | null =>
        headers instanceof Headers
          ? headers.get(name)
          : (Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1] ?? null);
      for (const [name, spec] of Object.entries<any>(response.headers ?? {})) {
        if (spec.required && header(name) === null)
          throw new Error(`${where}: required response header ${name} is missing`);
      }
      // A response the document gives no content (204) must come without a body.
      if (!response.content) {
        if (body !== '' && body !== null && body !== undefined)
          throw new Error(`${where}: the document lists no body, got ${JSON.stringify(body).slice(0, 300)}`);
        checked.add(`${method.toUpperCase()} ${template} ${status}`);
        validated += 1;
        return;
      }
      const contentType = (header('content-type') ?? (typeof body === 'string' ? 'text/plain' : 'application/json'))
        .split(';')[0]
        ?.trim() as string;
      const media = response.content?.[contentType];
      if (!media)
        throw new Error(
          `${where}: content type ${contentType} is not in the document (it lists ` +
            `${Object.keys(response.content ?? {}).join(', ') || 'no body'})`,
        );
      const validate = compile(media.schema);
      if (!validate(body)) {
        throw new Error(
          `${where}: the body does not match the document:\n` +
            `${ajv.errorsText(validate.errors, { separator: '\n' })}\nbody: ${JSON.stringify(body).slice(0, 1500)}`,
        );
      }
      checked.add(`${method.toUpperCase()} ${template} ${status}`);
      validated += 1;
    },
  };
}

/**
 * One-off form of DocumentValidator.expectMatches (compiles the document each call: prefer documentValidator in loops).
 */
export async function expectMatchesDocument(
  document: OpenApiDoc,
  method: string,
  path: string,
  status: number,
  body: unknown,
  headers?: Headers | Record<string, string>,
): Promise<void> {
  (await documentValidator(document)).expectMatches(method, path, status, body, headers);
}
