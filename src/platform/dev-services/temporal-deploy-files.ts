import { readFileSync } from 'node:fs';
import path from 'node:path';

/** deploy/, which is also the server's config dir here: it reads `<dir>/<env>.yaml` (and `<dir>/base.yaml`, if any). */
export const TEMPORAL_CONFIG_DIR = path.resolve(__dirname, '..', '..', '..', 'deploy');

/**
 * What the server runs with, here and in docker-compose.yml, which mounts and runs the same files
 * (test/unit/docker-compose.test.ts checks it does).
 */
export const TEMPORAL_DEPLOY_FILES = {
  /** The config template: the server reads `<config dir>/<env>.yaml`, so its base name is the `--env`. */
  config: path.join(TEMPORAL_CONFIG_DIR, 'temporal-server.yaml'),
  dynamicConfig: path.join(TEMPORAL_CONFIG_DIR, 'temporal-dynamicconfig.yaml'),
  schemaScript: path.join(TEMPORAL_CONFIG_DIR, 'temporal-schema.sh'),
  namespaceScript: path.join(TEMPORAL_CONFIG_DIR, 'temporal-namespace.sh'),
} as const;

/** The config's history shard count: a literal there, so compose and the harness cannot run different counts. */
export function temporalHistoryShards(): number {
  const text = readFileSync(TEMPORAL_DEPLOY_FILES.config, 'utf8');
  const match = /^\s+numHistoryShards:\s*(\d+)\s*$/m.exec(text);
  if (!match) throw new Error(`${TEMPORAL_DEPLOY_FILES.config} sets no literal numHistoryShards`);
  return Number(match[1]);
}

/**
 * The server's arguments with the config template in `configDir`. `--allow-no-auth`: this frontend has no authorizer
 * (compose keeps it on an internal network, the harness on loopback), said here rather than warned about at start.
 */
export const temporalServerArgs = (configDir: string): string[] => [
  '--root',
  '/',
  '--config',
  configDir,
  '--env',
  path.basename(TEMPORAL_DEPLOY_FILES.config, '.yaml'),
  '--allow-no-auth',
  'start',
];
