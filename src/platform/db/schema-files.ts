/**
 * The SQL files of the schema, read from the folders the composition root passes (each feature declares its own in
 * its module.ts; the platform's are in platform-schema.ts). Two kinds, each in ONE global order by file name,
 * whatever folder a file sits in: migrations (tables and data) and functions files (functions and triggers). A name
 * starts with a three-digit number, unique within its kind across every folder, so spreading the files over feature
 * folders can never leave their order to chance: a number used twice, or a .sql file without one, is refused before
 * anything runs.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Where one part of the service keeps its SQL. Both folders hold files named `NNN_name.sql`. */
export interface SchemaFolders {
  /** Numbered migrations: each applied once, in global number order, and recorded with its checksum. */
  readonly migrations?: string;
  /** Functions files: all of them applied, in global number order, after the migrations, when any changed. */
  readonly functions?: string;
}

export interface SqlFile {
  /** The file name, which is also its identity: schema_migrations records it, the functions checksum hashes it. */
  name: string;
  /** Where it was read, for messages. */
  path: string;
  sql: string;
}

export interface MigrationFile extends SqlFile {
  version: number;
  checksum: string;
}

const NUMBERED_SQL = /^(\d{3})_[a-z0-9_-]+\.sql$/;

type Kind = 'migrations' | 'functions';

/** Every .sql file of that kind's folders, checked and sorted by name (= by number), without their text yet. */
async function listNumbered(kind: Kind, folders: readonly SchemaFolders[]): Promise<{ name: string; path: string }[]> {
  const files: { name: string; path: string }[] = [];
  for (const folder of folders) {
    const dir = folder[kind];
    if (dir === undefined) continue;
    for (const name of (await readdir(dir)).filter((f) => f.endsWith('.sql'))) {
      const file = path.join(dir, name);
      if (!NUMBERED_SQL.test(name)) {
        throw new Error(
          `${kind} file ${file} is not named NNN_name.sql: its number is what orders it among all folders`,
        );
      }
      files.push({ name, path: file });
    }
  }
  const pathsByNumber = new Map<string, string[]>();
  for (const f of files) {
    const number = f.name.slice(0, 3);
    pathsByNumber.set(number, [...(pathsByNumber.get(number) ?? []), f.path]);
  }
  const taken = [...pathsByNumber].filter(([, paths]) => paths.length > 1);
  if (taken.length > 0) {
    const list = taken.map(([n, paths]) => `${n}: ${paths.join(', ')}`).join('; ');
    throw new Error(
      `${kind} numbers used twice (their order would be a guess; renumber the one not applied yet): ${list}`,
    );
  }
  return files.sort((a, b) => (a.name < b.name ? -1 : 1));
}

async function readNumbered(kind: Kind, folders: readonly SchemaFolders[]): Promise<SqlFile[]> {
  const files = await listNumbered(kind, folders);
  return Promise.all(files.map(async (f) => ({ ...f, sql: await readFile(f.path, 'utf8') })));
}

/** The migrations of every folder, in global name order, with their version (the number) and sha256. */
export async function readMigrationFiles(folders: readonly SchemaFolders[]): Promise<MigrationFile[]> {
  return (await readNumbered('migrations', folders)).map((f) => ({
    ...f,
    version: Number(f.name.slice(0, 3)),
    checksum: createHash('sha256').update(f.sql).digest('hex'),
  }));
}

/** The functions files of every folder, in global name order: the order they are applied and hashed in. */
export async function readFunctionFiles(folders: readonly SchemaFolders[]): Promise<SqlFile[]> {
  return readNumbered('functions', folders);
}
