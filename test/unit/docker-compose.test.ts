import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import {
  TEMPORAL_DEPLOY_FILES,
  temporalHistoryShards,
  temporalServerArgs,
} from '../../src/platform/dev-services/temporal-deploy-files';
import { TEMPORAL_SERVER_VERSION } from '../../src/platform/dev-services/temporal-server-build';
import { SearchAttributeType } from '@temporalio/common';
import { ALL_SEARCH_ATTRIBUTES } from '../../src/platform/temporal/search-attributes';

/**
 * docker-compose.yml keeps the Temporal frontend, which has no authentication there, out of reach: no published
 * port, an internal network, a read-only Web UI on the host's loopback; and its Temporal is the one
 * `npm run test:production-shape` runs. There is no Docker engine here, so the file is read with a YAML parser
 * (anchors, aliases and merge keys resolved, as compose resolves them) and its structure checked.
 */
const ROOT = path.join(__dirname, '..', '..');
const text = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');

interface Service {
  image?: string;
  ports?: string[];
  expose?: string[];
  networks?: string[] | Record<string, unknown>;
  environment?: Record<string, string>;
  volumes?: string[];
  entrypoint?: string[];
  command?: string[];
  depends_on?: Record<string, { condition: string }>;
}
const compose = parse(text, { merge: true }) as {
  services: Record<string, Service>;
  networks?: Record<string, { internal?: boolean }>;
};
const services = compose.services;

/** A service's networks by name, whichever of compose's two spellings (list or map) the file uses. */
const networksOf = (service: Service | undefined): string[] =>
  Array.isArray(service?.networks) ? [...service.networks] : Object.keys(service?.networks ?? {});

describe('docker-compose.yml keeps the Temporal frontend out of reach', () => {
  test('the temporal service publishes no port and is on one network only, an internal one', () => {
    const temporal = services.temporal;
    expect(temporal).toBeDefined();
    expect(temporal?.ports).toBeUndefined();
    expect(temporal?.expose).toBeUndefined();
    expect(networksOf(temporal)).toEqual(['temporal']);
    expect(compose.networks?.temporal?.internal).toBe(true);
  });

  test('its database and setup jobs are on the internal network only, and publish nothing', () => {
    for (const name of ['temporal-db', 'temporal-schema', 'temporal-search-attributes']) {
      expect(services[name]?.ports).toBeUndefined();
      expect(networksOf(services[name])).toEqual(['temporal']);
    }
  });

  test('the Web UI is read-only and published on the host loopback only', () => {
    const ui = services['temporal-ui'];
    expect(ui?.environment?.TEMPORAL_DISABLE_WRITE_ACTIONS).toBe('true');
    expect(ui?.ports?.length).toBeGreaterThan(0);
    for (const port of ui?.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:/);
  });

  test(
    'only the api publishes a port beyond the loopback; ' + 'the api and the worker reach Temporal over its network',
    () => {
      const published = Object.entries(services).flatMap(([service, s]) =>
        (s.ports ?? []).map((port) => ({ service, port: String(port) })),
      );
      expect(published.filter(({ port }) => !port.startsWith('127.0.0.1:'))).toEqual([
        { service: 'api', port: '3000:3000' },
      ]);
      for (const name of ['api', 'worker']) expect(networksOf(services[name]).sort()).toEqual(['default', 'temporal']);
    },
  );

  test('TEMPORAL_ALLOW_INSECURE is set once, in the environment the api and the worker share, and nowhere else', () => {
    expect(text.match(/^\s+TEMPORAL_ALLOW_INSECURE:/gm)).toHaveLength(1);
    expect(services.worker?.environment?.TEMPORAL_ALLOW_INSECURE).toBe('true');
    // One anchored map, not two copies: the api's environment is the worker's, alias for alias.
    expect(services.api?.environment).toBe(services.worker?.environment);
  });
});

/** Where `service` mounts the file the harness runs (a path of the tree), or undefined when it does not. */
function mountTarget(service: Service | undefined, file: string): string | undefined {
  for (const volume of service?.volumes ?? []) {
    const [source = '', target] = volume.split(':');
    if (path.resolve(ROOT, source) === file) return target;
  }
  return undefined;
}

/** The one command line a service runs: its entrypoint and command joined, as `sh -c` reads them. */
const commandLine = (service: Service | undefined): string =>
  [...(service?.entrypoint ?? []), ...(service?.command ?? [])].join(' ').replace(/\s+/g, ' ');

describe('docker-compose.yml runs the Temporal that npm run test:production-shape runs', () => {
  const server = services.temporal;

  test('the server and the admin tools are images of the version the harness builds', () => {
    const tag = TEMPORAL_SERVER_VERSION.replace(/^v/, '');
    const temporalImages = Object.values(services)
      .map((s) => s.image ?? '')
      .filter((image) => /^temporalio\/(server|admin-tools|auto-setup):/.test(image));
    expect(server?.image).toBe(`temporalio/server:${tag}`);
    expect(temporalImages.sort()).toEqual([
      `temporalio/admin-tools:${tag}`,
      `temporalio/admin-tools:${tag}`,
      `temporalio/server:${tag}`,
    ]);
  });

  test('.ci/run builds that same version of the server and its SQL tool', () => {
    const ci = readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
    expect(ci.match(/^TEMPORAL_SERVER_VERSION=(\S+)$/m)?.[1]).toBe(TEMPORAL_SERVER_VERSION);
    // The shell's own variable, as written in .ci/run.
    expect(ci).toMatch(/go\.temporal\.io\/server\/cmd\/server@\$\{TEMPORAL_SERVER_VERSION\}/);
    expect(ci).toMatch(/go\.temporal\.io\/server\/cmd\/tools\/sql@\$\{TEMPORAL_SERVER_VERSION\}/);
    expect(ci).toMatch(/^npm run test:production-shape$/m);
  });

  test("the server runs the harness's config with the harness's arguments, so the same history shard count", () => {
    const config = mountTarget(server, TEMPORAL_DEPLOY_FILES.config);
    expect(config).toBeDefined();
    const configDir = path.posix.dirname(config as string);
    expect(path.posix.basename(config as string)).toBe(path.basename(TEMPORAL_DEPLOY_FILES.config));
    expect(commandLine(server)).toContain(`exec temporal-server ${temporalServerArgs(configDir).join(' ')}`);
    // The count is a literal of that file, which nothing in the environment overrides (auto-setup's variable).
    expect(temporalHistoryShards()).toBeGreaterThan(1);
    expect(text).not.toMatch(/NUM_HISTORY_SHARDS/);
  });

  test("the server's dynamic config is the file the harness passes", () => {
    const mounted = mountTarget(server, TEMPORAL_DEPLOY_FILES.dynamicConfig);
    expect(mounted).toBeDefined();
    expect(server?.environment?.DYNAMIC_CONFIG_FILE_PATH).toBe(mounted);
  });

  test("the schema and the namespace are set up by the harness's scripts, in order", () => {
    const schema = services['temporal-schema'];
    const namespace = services['temporal-search-attributes'];
    expect(schema?.entrypoint).toEqual(['sh', mountTarget(schema, TEMPORAL_DEPLOY_FILES.schemaScript)]);
    expect(namespace?.entrypoint).toEqual(['sh', mountTarget(namespace, TEMPORAL_DEPLOY_FILES.namespaceScript)]);
    expect(server?.depends_on?.['temporal-schema']?.condition).toBe('service_completed_successfully');
    expect(namespace?.depends_on?.temporal).toBeDefined();
    // The worker starts once they are done, the api once the worker is ready.
    expect(services.worker?.depends_on?.['temporal-search-attributes']?.condition).toBe(
      'service_completed_successfully',
    );
    // The schema steps and the server read the one database.
    const database = ['POSTGRES_SEEDS', 'DB_PORT', 'POSTGRES_USER', 'POSTGRES_PWD'];
    for (const name of database) expect(server?.environment?.[name]).toBe(schema?.environment?.[name]);
    expect(schema?.environment?.POSTGRES_SEEDS).toBe('temporal-db');
  });

  test('the namespace script registers exactly the search attributes the code defines, all Keyword', () => {
    const script = readFileSync(TEMPORAL_DEPLOY_FILES.namespaceScript, 'utf8');
    const listed = (/^ATTRIBUTES="([^"]*)"$/m.exec(script)?.[1] ?? '').split(' ').filter(Boolean);
    expect(listed.sort()).toEqual(ALL_SEARCH_ATTRIBUTES.map((a) => a.name).sort());
    expect(new Set(ALL_SEARCH_ATTRIBUTES.map((a) => a.type))).toEqual(new Set([SearchAttributeType.KEYWORD]));
    expect(script).toMatch(/--type Keyword/);
  });
});

describe('the Dockerfile builds from what the tree has', () => {
  test('every COPY source exists (a folder moved in the tree is moved in the image too)', () => {
    const root = path.resolve(__dirname, '..', '..');
    const sources = [...readFileSync(path.join(root, 'Dockerfile'), 'utf8').matchAll(/^COPY (.+) \S+$/gm)].flatMap(
      (m) => (m[1] as string).split(/\s+/),
    );
    const missing = sources.filter((source) => !existsSync(path.join(root, source)));

    expect(sources).toContain('src');
    expect(missing).toEqual([]);
  });
});
