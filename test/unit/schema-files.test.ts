import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SCHEMA_FOLDERS } from '../../src/app/schema-folders';
import { readFunctionFiles, readMigrationFiles, type SchemaFolders } from '../../src/platform/db/schema-files';

/**
 * The SQL of the schema is spread over the feature folders (src/<feature>/migrations, src/<feature>/functions) and
 * applied in one global order by file name (src/platform/db/schema-files.ts). A number used twice would leave that
 * order to chance, and a folder no module declares would never run: both are refused here, before a start would.
 */
const SRC = path.join(__dirname, '..', '..', 'src');

let root: string;

/** Writes `files` (name → SQL) into a new folder `dir` under this test's temporary directory. */
async function folder(dir: string, files: Record<string, string>): Promise<string> {
  const full = path.join(root, dir);
  await mkdir(full, { recursive: true });
  for (const [name, sql] of Object.entries(files)) await writeFile(path.join(full, name), sql);
  return full;
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'schema-files-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('reading the numbered SQL files of several folders', () => {
  test('migrations of several folders come in one order by name, whatever folder holds them', async () => {
    // Arrange
    const folders: SchemaFolders[] = [
      { migrations: await folder('a/migrations', { '002_b.sql': 'SELECT 2;', 'README.md': 'not SQL' }) },
      { migrations: await folder('b/migrations', { '003_c.sql': 'SELECT 3;', '001_a.sql': 'SELECT 1;' }) },
      { functions: await folder('c/functions', { '001_f.sql': 'SELECT 0;' }) },
    ];

    // Act
    const migrations = await readMigrationFiles(folders);

    // Assert
    expect(migrations.map((m) => [m.name, m.version, m.sql])).toEqual([
      ['001_a.sql', 1, 'SELECT 1;'],
      ['002_b.sql', 2, 'SELECT 2;'],
      ['003_c.sql', 3, 'SELECT 3;'],
    ]);
    expect(migrations[0]?.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  test('functions files of several folders come in one order by name', async () => {
    const folders: SchemaFolders[] = [
      { functions: await folder('a/functions', { '030_c.sql': 'c', '010_a.sql': 'a' }) },
      { functions: await folder('b/functions', { '020_b.sql': 'b' }) },
    ];

    expect((await readFunctionFiles(folders)).map((f) => f.name)).toEqual(['010_a.sql', '020_b.sql', '030_c.sql']);
  });

  test('two migrations with the same number in different folders are refused, naming both', async () => {
    const a = await folder('billing/migrations', { '036_refunds.sql': '' });
    const b = await folder('identity/migrations', { '036_sessions.sql': '' });

    const read = readMigrationFiles([{ migrations: a }, { migrations: b }]);

    await expect(read).rejects.toThrow('migrations numbers used twice');
    await expect(read).rejects.toThrow(`036: ${path.join(a, '036_refunds.sql')}, ${path.join(b, '036_sessions.sql')}`);
  });

  test('two functions files with the same number are refused too', async () => {
    const a = await folder('a/functions', { '010_one.sql': '' });
    const b = await folder('b/functions', { '010_other.sql': '' });

    await expect(readFunctionFiles([{ functions: a }, { functions: b }])).rejects.toThrow(
      'functions numbers used twice',
    );
  });

  test('a .sql file without its number is refused, not skipped', async () => {
    const dir = await folder('a/functions', { 'credits.sql': '' });

    await expect(readFunctionFiles([{ functions: dir }])).rejects.toThrow('is not named NNN_name.sql');
  });

  test('a declared folder that does not exist is refused', async () => {
    await expect(readMigrationFiles([{ migrations: path.join(root, 'missing') }])).rejects.toThrow('ENOENT');
  });
});

describe("the service's own schema folders (src/app/schema-folders.ts)", () => {
  test('every migrations and functions folder under src is declared, and nothing else', async () => {
    // Arrange: the folders on disk, src/<feature>/<kind> and the platform's src/platform/db/<kind>.
    const onDisk: string[] = [];
    for (const parent of [...(await readdir(SRC)).map((d) => path.join(SRC, d)), path.join(SRC, 'platform', 'db')]) {
      for (const kind of ['migrations', 'functions']) {
        if (existsSync(path.join(parent, kind))) onDisk.push(path.join(parent, kind));
      }
    }

    // Act
    const declared = SCHEMA_FOLDERS.flatMap((f) => [f.migrations, f.functions]).filter((d) => d !== undefined);

    // Assert
    expect([...declared].sort()).toEqual(onDisk.sort());
  });

  test('the migrations are numbered 1 to N without a gap, and every functions file reads', async () => {
    const versions = (await readMigrationFiles(SCHEMA_FOLDERS)).map((m) => m.version);
    expect(versions).toEqual(Array.from({ length: versions.length }, (_, i) => i + 1));
    expect((await readFunctionFiles(SCHEMA_FOLDERS)).length).toBeGreaterThan(0);
  });
});
