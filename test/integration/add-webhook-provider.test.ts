import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * What adding a feature costs: a minimal payment provider (test/fixtures/fake-provider/fakepay: an HMAC-signed
 * webhook, one workflow, one credit grant) goes into a copy of this tree as one new folder plus one line of the
 * composition root's feature list. The change touches nothing else, type-checks, passes the import rules, and
 * works: a real api and worker over the run's Postgres and Temporal grant its credits once.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const TEMPLATE = path.join(ROOT, 'test', 'fixtures', 'fake-provider');
const run = promisify(execFile);

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd });
  return stdout;
}

/** The tree as it is now (tracked and new files), without the big data and node_modules, which are linked. */
async function copyTree(into: string): Promise<void> {
  const files = (await git(ROOT, 'ls-files', '-co', '--exclude-standard', '-z')).split('\0').filter(Boolean);
  for (const file of files) {
    if (file.startsWith('data/') || file.startsWith('test-artifacts/')) continue;
    mkdirSync(path.dirname(path.join(into, file)), { recursive: true });
    cpSync(path.join(ROOT, file), path.join(into, file));
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(into, 'node_modules'), 'dir');
  symlinkSync(path.join(ROOT, 'data'), path.join(into, 'data'), 'dir');
}

/** The change a developer makes: the folder, and the feature in the list (an import and an entry). */
function addFakePay(tree: string): void {
  cpSync(path.join(TEMPLATE, 'fakepay'), path.join(tree, 'src', 'fakepay'), { recursive: true });
  const list = path.join(tree, 'src', 'app', 'features.ts');
  const text = readFileSync(list, 'utf8')
    .replace(/^(import .*\n)(?!import )/m, "$1import { fakePayModule } from '../fakepay/module';\n")
    .replace(/(const MODULES = \[\n(?: {2}\w+,\n)*)/, '$1  fakePayModule,\n');
  writeFileSync(list, text);
}

describe('adding a webhook provider is one folder and one line', () => {
  let tree: string;
  beforeAll(async () => {
    tree = mkdtempSync(path.join(tmpdir(), 'add-provider-'));
    await copyTree(tree);
    await git(tree, 'init', '-q');
    await git(tree, 'add', '-A');
    await git(tree, 'commit', '-qm', 'before');
    addFakePay(tree);
    cpSync(path.join(TEMPLATE, 'prove-fakepay.ts'), path.join(tree, 'prove-fakepay.ts'));
  }, 120_000);
  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  test('the change touches only the new folder and the feature list', async () => {
    await git(tree, 'add', 'src');
    const changed = (await git(tree, 'diff', '--cached', '--name-only')).trim().split('\n');

    expect(changed.filter((file) => !file.startsWith('src/fakepay/'))).toEqual(['src/app/features.ts']);
    expect(changed).toContain('src/fakepay/module.ts');
    const features = await git(tree, 'diff', '--cached', '--numstat', 'src/app/features.ts');
    expect(features.trim()).toBe('2\t0\tsrc/app/features.ts');
  });

  test('the tree with it type-checks and keeps every import rule', async () => {
    await run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', '.'], {
      cwd: tree,
      maxBuffer: 16 * 1024 * 1024,
    });
    const cruise = await run(
      process.execPath,
      [
        path.join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'),
        'src',
        '--config',
        '.dependency-cruiser.js',
      ],
      { cwd: tree, maxBuffer: 16 * 1024 * 1024 },
    );
    expect(cruise.stdout).toMatch(/no dependency violations found/);
  }, 180_000);

  test('a real api and worker grant its credits once, and refuse forged and altered deliveries', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    // The run's prebuilt bundle is this tree's workflows: the copy bundles its own, FakePay's included.
    delete env.TEST_WORKFLOW_BUNDLE;
    const { stdout } = await run(
      process.execPath,
      [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'prove-fakepay.ts'],
      {
        cwd: tree,
        env,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const outcome = JSON.parse(stdout.trim().split('\n').pop() as string);

    expect(outcome).toEqual({
      statuses: [200, 200, 200],
      redelivered: [200, true],
      forged: 401,
      tampered: 401,
      balance: 25,
      documented: true,
    });
  }, 180_000);
});
