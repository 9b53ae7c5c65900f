import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { Logger } from '../logging/logger';
import { goInstall, onPath } from './go-install';

/** The newest CLI tag that `go install` can build (later tags carry replace directives). */
export const TEMPORAL_CLI_VERSION = 'v1.5.1';

/** Outside the checkout, so every clone (and CI) reuses one build. .ci/run builds into the same place. */
export const cachedCliPath = (): string =>
  path.join(homedir(), '.cache', 'temporal-cli', TEMPORAL_CLI_VERSION, 'temporal');

/**
 * Finds the Temporal CLI (it contains the dev server and the Web UI): TEMPORAL_CLI_PATH, then the
 * cached build, then `temporal` on PATH, else builds it with Go when Go is installed. Returns null when
 * none of these works; the SDK may then download a CLI itself (needs internet).
 */
export function resolveTemporalCli(explicit: string | undefined, log: Logger): string | null {
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`TEMPORAL_CLI_PATH ${explicit} does not exist`);
    return explicit;
  }
  const cached = cachedCliPath();
  if (existsSync(cached)) return cached;
  const installed = onPath('temporal');
  if (installed) return installed;
  if (!onPath('go')) return null;
  log.info('building the Temporal CLI with Go (first run only, takes a few minutes)', {
    version: TEMPORAL_CLI_VERSION,
    into: path.dirname(cached),
  });
  goInstall([`github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`], path.dirname(cached));
  return existsSync(cached) ? cached : null;
}
