import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// semver comes with the dev tooling (no types are installed): the few calls used here, typed.
const semver = require('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
  gte(a: string, b: string): boolean;
};

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface LockEntry {
  dev?: boolean;
  engines?: { node?: unknown } | unknown[];
}

/**
 * What the service's own code needs of Node, beyond its dependencies' engines fields: the floor of `engines.node`.
 */
const OWN_NEEDS: Record<string, string> = {
  '20.15.0': 'zlib.crc32 (the CRC-32 of the PayPal signed string, src/billing/paypal/signature.ts)',
  '20.19.0': 'require() of ES modules without a flag: jose 6 ships ESM only and our code is CommonJS',
};

/**
 * Dependencies whose engines field asks for more than `engines` allows although the code we run never loads them;
 * each with how the test proves that the part needing the newer Node stays unloaded.
 */
const UNLOADED: Record<string, { why: string; entry: string; mustNotLoad: string }> = {
  'node_modules/@solana/errors/node_modules/commander': {
    why: "@solana/errors's CLI (bin/cli.mjs, decoding error codes by hand) uses it; its library entry does not",
    entry: 'node_modules/@solana/errors/dist/index.node.cjs',
    mustNotLoad: 'commander',
  },
};

/** Every production package of the lockfile (what `npm ci --omit=dev` installs) with its engines.node. */
function productionEngines(): { pkg: string; node: string }[] {
  const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, LockEntry> };
  const out: { pkg: string; node: string }[] = [];
  for (const [pkg, entry] of Object.entries(lock.packages)) {
    if (pkg === '' || entry.dev) continue;
    // The installed package.json is what runs; the lockfile's copy stands in for optional packages of other platforms.
    const manifest = path.join(ROOT, pkg, 'package.json');
    const engines = existsSync(manifest)
      ? (JSON.parse(readFileSync(manifest, 'utf8')) as { engines?: { node?: unknown } }).engines
      : entry.engines;
    const node = engines && !Array.isArray(engines) ? engines.node : undefined;
    if (typeof node === 'string') out.push({ pkg, node });
  }
  return out;
}

describe('supported Node.js runtimes', () => {
  const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
  const floor = semver.minVersion(engines)?.version as string;
  const dockerNode = /^FROM node:(\d+)-/m.exec(read('Dockerfile'))?.[1];

  test('when engines.node is read, then its minimum covers what our own code needs', () => {
    const unmet = Object.entries(OWN_NEEDS)
      .filter(([version]) => !semver.gte(floor, version))
      .map(([version, why]) => `${version}: ${why}`);
    expect(unmet).toEqual([]);
  });

  test(
    "when every production dependency's engines.node is checked, then both the minimum engines allows and the " +
      "Dockerfile's Node satisfy it",
    () => {
      const all = productionEngines();
      const refused = all
        .filter(({ pkg }) => !UNLOADED[pkg])
        .flatMap(({ pkg, node }) =>
          [
            [floor, `engines lets ${floor} run it`],
            [`${dockerNode}.0.0`, `the Dockerfile runs it on ${dockerNode}`],
          ]
            .filter(([version]) => !semver.satisfies(version as string, node))
            .map(([, what]) => `${pkg} needs node ${node}, ${what}`),
        );
      expect(all.length).toBeGreaterThan(100); // the walk found the tree
      expect(refused).toEqual([]);
    },
  );

  test.each(Object.entries(UNLOADED))(
    'when %s asks for a newer Node than engines allows, then the entry we load does not load it',
    (pkg, { entry, mustNotLoad }) => {
      const listed = productionEngines().find((p) => p.pkg === pkg);
      // Once the exception is no longer needed (the package left the tree or fits engines), it must be removed.
      expect(listed && !semver.satisfies(floor, listed.node)).toBe(true);
      expect(read(entry)).not.toContain(mustNotLoad);
    },
  );

  test('when this test runs, then the running Node satisfies engines (npm ci would warn otherwise)', () => {
    expect(semver.satisfies(process.versions.node, engines)).toBe(true);
  });

  test(
    'when the Dockerfile is read, ' + 'then it builds on a current LTS line that engines allows, not the ended 20',
    () => {
      const major = Number(dockerNode);
      expect([major % 2, major >= 24, semver.satisfies(`${major}.0.0`, engines)]).toEqual([0, true, true]);
    },
  );
});
