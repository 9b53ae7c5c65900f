import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Express } from 'express';
import { documentValidator, validateWithSwaggerParser, type OpenApiDoc } from '../helpers/openapi-validator';
import { startTestStack, type TestStack } from '../helpers/test-stack';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * Surfaces that are not the JSON API, named one by one: the docs page and its assets, the account
 * dashboard (HTML and its bundle under /app, and / redirecting to it) and socket.io (attached to the
 * HTTP server, not to Express, listed for completeness).
 */
const NOT_API: { route: RegExp; why: string }[] = [
  { route: /^GET \/docs(\/.*)?$/, why: 'the HTML docs page, its initializer and swagger-ui-dist assets' },
  { route: /^GET \/app(\/.*)?$/, why: 'the account dashboard (HTML, config, bundle assets)' },
  { route: /^GET \/$/, why: 'redirect to the dashboard' },
  { route: /^[A-Z]+ \/socket\.io(\/.*)?$/, why: 'socket.io' },
];

interface RouterLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
  /** router >= 2.2 (Express 5): the path the layer was mounted with, as given (string or array). */
  rawPath?: string | string[];
}

const join = (prefix: string, path: string) => `/${prefix}/${path}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');

/**
 * Every `METHOD /full/path` of the app's router table, `:param` written `{param}`. Express 5's layers
 * match with path-to-regexp v8 matchers and no longer keep a regexp a mount path could be read back
 * from; router 2.x keeps the path each layer was created with as `rawPath`, which is what this reads
 * for mounted routers (`app.use('/api/v1', router)`). A router version without it fails loudly here
 * rather than producing a table without mount paths.
 */
function routeTable(app: Express): Set<string> {
  const routes = new Set<string>();
  const walk = (stack: RouterLayer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths) {
          for (const method of Object.keys(layer.route.methods).filter((m) => m !== '_all')) {
            routes.add(`${method.toUpperCase()} ${join(prefix, path).replace(/:(\w+)/g, '{$1}')}`);
          }
        }
      } else if (layer.handle?.stack) {
        if (layer.rawPath === undefined)
          throw new Error('a mounted router layer has no rawPath: this router version does not keep mount paths');
        for (const mount of Array.isArray(layer.rawPath) ? layer.rawPath : [layer.rawPath])
          walk(layer.handle.stack, join(prefix, mount));
      }
    }
  };
  walk((app as unknown as { router: { stack: RouterLayer[] } }).router.stack, '');
  return routes;
}

function documented(doc: OpenApiDoc): Set<string> {
  const out = new Set<string>();
  for (const [path, item] of Object.entries<any>(doc.paths))
    for (const method of METHODS) if (item[method]) out.add(`${method.toUpperCase()} ${path}`);
  return out;
}

describe('the OpenAPI document', () => {
  let stack: TestStack;
  let doc: OpenApiDoc;
  let served: Response;

  beforeAll(async () => {
    stack = await startTestStack({ worker: false });
    served = await fetch(`${stack.api.url}/api/v1/openapi.json`);
    doc = await served.clone().json();
  });
  afterAll(async () => stack.stop());

  test(
    'when the document is fetched over HTTP without credentials, then it is ' +
      'JSON that swagger-parser validates as OpenAPI 3.1',
    async () => {
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toMatch(/^application\/json/);
      expect(doc.openapi).toBe('3.1.0');
      await expect(validateWithSwaggerParser(doc)).resolves.toBeUndefined();
      // The check can fail: the same document with an operation lacking its responses is refused.
      const broken = structuredClone(doc);
      broken.components.securitySchemes.apiKey.in = 'body';
      await expect(validateWithSwaggerParser(broken)).rejects.toThrow(/apiKey|securitySchemes|in/);
    },
  );

  test(
    'when the router table of the real app is walked, then every ' +
      'API route has an operation and every operation a route',
    () => {
      const routes = routeTable(stack.api.app);
      const api = [...routes].filter((r) => !NOT_API.some((x) => x.route.test(r)));
      const ops = documented(doc);

      const undocumented = api.filter((r) => !ops.has(r));
      const phantom = [...ops].filter((o) => !routes.has(o));

      expect(undocumented).toEqual([]);
      expect(phantom).toEqual([]);
      expect(api).toEqual(
        expect.arrayContaining([
          'POST /api/v1/kyt/job',
          'GET /api/v1/market-data/candles',
          'POST /api/webhook/activity',
          'GET /health',
          'GET /api/v1/openapi.json',
        ]),
      );
      expect([...routes].filter((r) => r.startsWith('GET /docs'))).toEqual(expect.arrayContaining(['GET /docs']));
    },
  );

  test(
    'when the operations are read, then each has a unique operationId, tags, a summary, responses and security, ' +
      'and only the synchronous analyze endpoints are deprecated',
    () => {
      const ids: string[] = [];
      const deprecated: string[] = [];
      for (const [path, item] of Object.entries<any>(doc.paths)) {
        for (const method of METHODS) {
          const op = item[method];
          if (!op) continue;
          ids.push(op.operationId);
          expect([
            path,
            method,
            typeof op.operationId,
            op.tags?.length > 0,
            typeof op.summary,
            Object.keys(op.responses).length > 0,
            Array.isArray(op.security),
          ]).toEqual([path, method, 'string', true, 'string', true, true]);
          if (op.deprecated) deprecated.push(`${method.toUpperCase()} ${path}`);
        }
      }
      expect(new Set(ids).size).toBe(ids.length);
      expect(deprecated.sort()).toEqual(['POST /api/v1/kya/analyze', 'POST /api/v1/kyt/analyze']);
    },
  );

  test('when the security schemes are read, then every way a caller authenticates is there', () => {
    const schemes = doc.components.securitySchemes;
    expect(
      Object.values<any>(schemes)
        .map((s) => (s.type === 'apiKey' ? `${s.in}:${s.name}` : `${s.type}:${s.scheme}:${s.bearerFormat}`))
        .sort(),
    ).toEqual([
      'header:PAYMENT-SIGNATURE',
      'header:PAYPAL-TRANSMISSION-SIG',
      'header:X-Activity-Webhook-Secret',
      'header:svix-signature',
      'header:x-api-key',
      'http:bearer:API key',
      'http:bearer:JWT',
    ]);
    expect(
      doc.paths['/api/v1/billing/payfast/webhook'].post.requestBody.content['application/x-www-form-urlencoded'],
    ).toBeDefined();
    expect(doc.components.schemas.PayFastItn.required).toContain('signature');
    expect(doc.paths['/api/v1/x402/kya/report'].post.responses['402'].headers['PAYMENT-REQUIRED']).toBeDefined();
    expect(doc.paths['/api/v1/x402/kya/report'].post.responses['200'].headers['PAYMENT-RESPONSE']).toBeDefined();
  });

  test(
    'when the error responses are read, then both error shapes of spec 7 are components and every 400 of a ' +
      'JSON body route is the structured INVALID_PARAMETER',
    async () => {
      expect(doc.components.schemas.FlatError.properties.success).toEqual({ type: 'boolean', const: false });
      expect(doc.components.schemas.StructuredError.properties.error.required).toEqual(['code', 'message', 'details']);
      const { doc: deref } = await documentValidator(doc);
      for (const [path, item] of Object.entries<any>(deref.paths)) {
        for (const method of METHODS) {
          const bad = item[method]?.responses?.['400'];
          // Webhooks answer their senders in their own shapes (a signed event that cannot be used is
          // the flat INVALID_EVENT).
          if (
            !bad ||
            path === '/api/webhook/activity' ||
            path === '/api/webhook/clerk' ||
            path.endsWith('/payfast/webhook') ||
            path.endsWith('/paypal/webhook')
          )
            continue;
          expect([path, JSON.stringify(bad.content['application/json'].schema)]).toEqual([
            path,
            expect.stringContaining('INVALID_PARAMETER'),
          ]);
        }
      }
    },
  );

  test('when every example in the document is checked against its schema, then each one matches', async () => {
    const { doc: deref } = await documentValidator(doc);
    const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
    addFormats(ajv);
    let checked = 0;
    const failures: string[] = [];
    const visitMedia = (where: string, content: Record<string, any> = {}) => {
      for (const [type, media] of Object.entries<any>(content)) {
        for (const [name, example] of Object.entries<any>(media.examples ?? {})) {
          const validate = ajv.compile(media.schema);
          checked += 1;
          if (!validate(example.value))
            failures.push(`${where} ${type} example ${name}: ${ajv.errorsText(validate.errors)}`);
        }
      }
    };
    for (const [path, item] of Object.entries<any>(deref.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        visitMedia(`${method.toUpperCase()} ${path} request`, op.requestBody?.content);
        for (const [status, response] of Object.entries<any>(op.responses))
          visitMedia(`${method.toUpperCase()} ${path} ${status}`, response.content);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  });
});
