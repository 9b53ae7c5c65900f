import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FEATURES } from '../../src/app/features';

/**
 * Every account event a feature writes (a `realtime_notify` call in its SQL or TypeScript) is declared in its
 * module's socketEvents, every declared one is written, by that feature only, and the docs name each event the
 * sockets carry to clients. A literal followed by `||` (`'monitor_' || NEW.kind`) writes every declared event it
 * begins.
 */
const SRC = path.resolve(__dirname, '..', '..', 'src');
const DOCS = path.resolve(__dirname, '..', '..', 'docs');

function filesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'web' ? [] : filesOf(full);
    return /\.(sql|ts)$/.test(entry.name) ? [full] : [];
  });
}

/** The event names (or name prefixes) a feature's files write. */
function written(feature: string): { names: string[]; prefixes: string[] } {
  const names: string[] = [];
  const prefixes: string[] = [];
  for (const file of filesOf(path.join(SRC, feature))) {
    const text = readFileSync(file, 'utf8');
    const constants = new Map([...text.matchAll(/const (\w+) = '([a-z_]+)'/g)].map((m) => [m[1], m[2]]));
    // SQL: realtime_notify(NEW.user_id, 'name', …) or realtime_notify(NEW.user_id, 'prefix_' || NEW.kind, …)
    for (const [, name, concatenated] of text.matchAll(/realtime_notify\([^,$]+,\s*'([a-z_]+)'(\s*\|\|)?/g))
      (concatenated ? prefixes : names).push(name as string);
    // TypeScript: client.query('SELECT realtime_notify($1, $2, $3)', [accountId, 'name' or NAME, payload])
    for (const [, literal, constant] of text.matchAll(
      /realtime_notify\(\$1, \$2, \$3\)',\s*\[\s*[^,\]]+,\s*(?:'([a-z_]+)'|(\w+))/g,
    )) {
      const name = literal ?? constants.get(constant ?? '');
      if (name) names.push(name);
      else throw new Error(`${file}: realtime_notify with the event ${constant}, not a literal or a constant here`);
    }
  }
  return { names, prefixes };
}

describe('socket events', () => {
  const docs = readdirSync(DOCS)
    .filter((file) => file.endsWith('.md'))
    .map((file) => readFileSync(path.join(DOCS, file), 'utf8'))
    .join('\n');

  test.each(FEATURES.map((feature) => [feature.name, feature] as const))(
    'when %s writes account events, then its module declares exactly those',
    (_name, feature) => {
      const { names, prefixes } = written(feature.name);
      const declared = (feature.socketEvents ?? []).map((event) => event.name).sort();
      const covered = declared.filter((name) => names.includes(name) || prefixes.some((p) => name.startsWith(p)));
      expect({
        undeclared: names.filter((name) => !declared.includes(name)),
        unwritten: declared.filter((n) => !covered.includes(n)),
      }).toEqual({ undeclared: [], unwritten: [] });
    },
  );

  test(
    'when the events of every feature are listed, then each is declared once and each a client gets is ' + 'documented',
    () => {
      const all = FEATURES.flatMap((feature) => feature.socketEvents ?? []);
      expect(all.length).toBeGreaterThan(10);
      expect(new Set(all.map((event) => event.name)).size).toBe(all.length);
      const undocumented = all.filter((event) => !event.internal && !docs.includes(`\`${event.name}`));
      expect(undocumented.map((event) => event.name)).toEqual([]);
    },
  );
});
