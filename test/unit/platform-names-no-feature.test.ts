import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * src/platform is what every feature uses: it names none of them, not even in a comment, an example or a SQL file,
 * so a provider or a feature is added without touching it (docs/architecture.md, "Adding a feature").
 */
const PLATFORM = path.resolve(__dirname, '..', '..', 'src', 'platform');
const FEATURE_WORDS = /paypal|payfast|clerk|monitor|batch|x402/i;

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });

test('no file under src/platform names a feature or a provider', () => {
  const naming = files(PLATFORM).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) =>
        FEATURE_WORDS.test(line) ? [`${path.relative(PLATFORM, file)}:${i + 1}: ${line.trim()}`] : [],
      ),
  );

  expect(naming).toEqual([]);
});
