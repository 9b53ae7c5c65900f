import { execFileSync, spawnSync } from 'node:child_process';

/** The full path of `binary` on PATH, or null. */
export function onPath(binary: string): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${binary}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() || null : null;
}

/**
 * `go install <packages>` into `dir`: the dev services built from their Go modules (the Temporal CLI and server, btcd)
 * are built once into a cache outside the checkout, which every clone and .ci/run reuse. Go's own output goes to our
 * terminal: a first build takes minutes, and its progress says why.
 */
export function goInstall(packages: string[], dir: string): void {
  execFileSync('go', ['install', ...packages], { env: { ...process.env, GOBIN: dir }, stdio: 'inherit' });
}
