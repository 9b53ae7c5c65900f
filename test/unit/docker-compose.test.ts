import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/**
 * docker-compose.yml keeps the Temporal frontend, which has no authentication there, out of reach: no published
 * port, an internal network, a read-only Web UI on the host's loopback. There is no Docker engine here, so the file
 * is read with a YAML parser (anchors and aliases resolved, as compose resolves them) and its structure checked.
 */
const text = readFileSync(path.join(__dirname, '..', '..', 'docker-compose.yml'), 'utf8');

interface Service {
  ports?: string[];
  expose?: string[];
  networks?: string[] | Record<string, unknown>;
  environment?: Record<string, string>;
}
const compose = parse(text) as { services: Record<string, Service>; networks?: Record<string, { internal?: boolean }> };
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

  test('its database and setup job are on the internal network only, and publish nothing', () => {
    for (const name of ['temporal-db', 'temporal-search-attributes']) {
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

  test('only the api publishes a port beyond the loopback; the api and the worker reach Temporal over its network', () => {
    const published = Object.entries(services).flatMap(([service, s]) =>
      (s.ports ?? []).map((port) => ({ service, port: String(port) })),
    );
    expect(published.filter(({ port }) => !port.startsWith('127.0.0.1:'))).toEqual([
      { service: 'api', port: '3000:3000' },
    ]);
    for (const name of ['api', 'worker']) expect(networksOf(services[name]).sort()).toEqual(['default', 'temporal']);
  });

  test('TEMPORAL_ALLOW_INSECURE is set once, in the environment the api and the worker share, and nowhere else', () => {
    expect(text.match(/^\s+TEMPORAL_ALLOW_INSECURE:/gm)).toHaveLength(1);
    expect(services.worker?.environment?.TEMPORAL_ALLOW_INSECURE).toBe('true');
    // One anchored map, not two copies: the api's environment is the worker's, alias for alias.
    expect(services.api?.environment).toBe(services.worker?.environment);
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
