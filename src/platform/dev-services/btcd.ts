import { deadline } from '../abort/deadline';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from '../logging/logger';
import { freeLocalPort } from './free-port';
import { goInstall, onPath } from './go-install';

/** The btcd release the tests run (its address index answers searchrawtransactions). .ci/run builds the same tag. */
export const BTCD_VERSION = 'v0.24.2';

/** Outside the checkout, so every clone (and CI) reuses one build, like the Temporal CLI's. */
export const cachedBtcdPath = (): string => path.join(homedir(), '.cache', 'btcd', BTCD_VERSION, 'btcd');

const START_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5_000;
/** Lines of btcd's output kept for the error when it exits before answering. */
const OUTPUT_LINES_KEPT = 20;

/**
 * Finds btcd: BTCD_PATH, then the cached build, else builds it with Go (`go install`, pinned) when Go is installed.
 * Returns null when none of these works.
 */
export function resolveBtcd(explicit: string | undefined = process.env.BTCD_PATH, log?: Logger): string | null {
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`BTCD_PATH ${explicit} does not exist`);
    return explicit;
  }
  const cached = cachedBtcdPath();
  if (existsSync(cached)) return cached;
  if (!onPath('go')) return null;
  log?.info('building btcd with Go (first run only, takes a minute or two)', {
    version: BTCD_VERSION,
    into: path.dirname(cached),
  });
  goInstall([`github.com/btcsuite/btcd@${BTCD_VERSION}`], path.dirname(cached));
  return existsSync(cached) ? cached : null;
}

export type BtcdNetwork = 'regtest' | 'simnet';

export interface BtcdNode {
  /** http://user:pass@127.0.0.1:port: what BITCOIN_RPC_URL takes. */
  rpcUrl: string;
  network: BtcdNetwork;
  stop(): Promise<void>;
}

/** One JSON-RPC call with the URL's userinfo as Basic authorization (fetch refuses a URL that carries it). */
async function call(rpcUrl: string, method: string): Promise<unknown> {
  const url = new URL(rpcUrl);
  const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  const authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  url.username = '';
  url.password = '';
  // The project's one deadline (GC-safe, disposed), not AbortSignal.timeout: see test/integration/deadlines-under-gc.
  const limit = deadline(2_000);
  let body: { result?: unknown; error?: { message: string } | null };
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ jsonrpc: '1.0', id: 1, method, params: [] }),
      signal: limit.signal,
    });
    body = (await res.json()) as typeof body;
  } finally {
    limit.dispose();
  }
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/**
 * A btcd on a test network for tests and benchmarks: transaction and address indexes on (searchrawtransactions),
 * JSON-RPC without TLS on a free loopback port with a random user and password, no peers, blocks mined to
 * `miningAddress` by `generate`. Resolves once `getblockcount` answers; `stop` ends the process (and so does this
 * process's exit, so a failed test run leaves no btcd behind) and removes the temporary data directory.
 */
export async function startBtcd(options: {
  network: BtcdNetwork;
  miningAddress: string;
  /** Kept after stop when given; a fresh temporary directory otherwise. */
  dataDir?: string;
  port?: number;
  binary?: string;
  log?: Logger;
}): Promise<BtcdNode> {
  const binary = options.binary ?? resolveBtcd(undefined, options.log);
  if (!binary)
    throw new Error(`btcd ${BTCD_VERSION} is not built and Go is not installed to build it (or set BTCD_PATH)`);
  const temporary = options.dataDir === undefined;
  const root = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'chainscreen-btcd-')));
  // An empty config file of its own: the user's ~/.btcd/btcd.conf must not change the node the tests get.
  const configFile = path.join(root, 'btcd.conf');
  if (!existsSync(configFile)) await writeFile(configFile, '');
  const port = options.port ?? (await freeLocalPort());
  const user = randomBytes(8).toString('hex');
  const password = randomBytes(16).toString('hex');
  const child = spawn(
    binary,
    [
      `--${options.network}`,
      `--configfile=${configFile}`,
      `--datadir=${path.join(root, 'data')}`,
      `--logdir=${path.join(root, 'logs')}`,
      '--txindex',
      '--addrindex',
      `--rpcuser=${user}`,
      `--rpcpass=${password}`,
      `--rpclisten=127.0.0.1:${port}`,
      '--notls',
      '--nolisten',
      `--miningaddr=${options.miningAddress}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString().split('\n').filter(Boolean));
    output.splice(0, Math.max(0, output.length - OUTPUT_LINES_KEPT));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let spawnError: Error | undefined;
  child.once('error', (err) => (spawnError = err));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Synchronous, so it runs even when this process exits without awaiting stop().
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
    if (temporary) await rm(root, { recursive: true, force: true });
  };

  const rpcUrl = `http://${user}:${password}@127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (spawnError || child.exitCode !== null) {
      await stop();
      throw new Error(
        `btcd did not start (${spawnError?.message ?? `exit code ${child.exitCode}`}): ` +
          `${output.join('\n') || '(no output)'}`,
      );
    }
    try {
      await call(rpcUrl, 'getblockcount');
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`btcd did not answer getblockcount within ${START_TIMEOUT_MS} ms: ${output.join('\n')}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { rpcUrl, network: options.network, stop };
}
