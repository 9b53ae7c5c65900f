/**
 * Regular expressions (ECMA-262 sources, also valid JSON Schema `pattern`s) for inputs the validators
 * forgive: surrounding white space (`String#trim`, which removes exactly what `\s` matches) and letter
 * case (`toLowerCase` / `toUpperCase`). The zod schemas enforce them, so what the OpenAPI document says
 * a value may look like is what the route accepts.
 */

type Fold = 'lower' | 'upper';

const cache = new Map<string, string>();
const hex = (code: number) => `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
/**
 * A character as a pattern: regex syntax escaped (valid under the `u` flag, as JSON Schema validators compile),
 * non-ASCII as \\uXXXX.
 */
const literal = (ch: string) =>
  /[\\^$.|?*+()[\]{}/]/.test(ch) ? `\\${ch}` : ch.charCodeAt(0) < 0x80 ? ch : hex(ch.charCodeAt(0));

/** Every BMP character that case-folds (one character to one) onto a character `accepts` takes, as a class. */
function foldingClass(key: string, fold: Fold, accepts: (folded: string) => boolean): string {
  const cached = cache.get(key);
  if (cached) return cached;
  const codes: number[] = [];
  for (let code = 0; code <= 0xffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const ch = String.fromCharCode(code);
    const folded = fold === 'lower' ? ch.toLowerCase() : ch.toUpperCase();
    if (folded.length === 1 && accepts(folded)) codes.push(code);
  }
  // Consecutive code points as ranges: [0-9A-Za-z\u0131\u017F], not every member spelt out.
  const parts: string[] = [];
  for (let i = 0; i < codes.length; ) {
    let j = i;
    while (j + 1 < codes.length && codes[j + 1] === (codes[j] as number) + 1) j++;
    const first = literal(String.fromCharCode(codes[i] as number));
    const last = literal(String.fromCharCode(codes[j] as number));
    parts.push(j === i ? first : j === i + 1 ? `${first}${last}` : `${first}-${last}`);
    i = j + 1;
  }
  const cls = codes.length === 1 ? (parts[0] as string) : `[${parts.join('')}]`;
  cache.set(key, cls);
  return cls;
}

/**
 * `word` in any letter case as `toLowerCase()` sees it: "kyt" → "[Kk\u212A][Yy][Tt]" (U+212A KELVIN SIGN
 * lowercases to k).
 */
export function anyCase(word: string): string {
  return [...word]
    .map((ch) => (/[a-z]/.test(ch) ? foldingClass(`lower:${ch}`, 'lower', (f) => f === ch) : literal(ch)))
    .join('');
}

/** One of `words` (lower case), in any letter case, with optional surrounding white space. */
export function oneOfAnyCase(words: readonly string[], options: { optional?: boolean } = {}): RegExp {
  return new RegExp(`^\\s*(?:${words.map(anyCase).join('|')})${options.optional ? '?' : ''}\\s*$`);
}

/** Characters whose `toUpperCase()` is one of A-Z or 0-9 (ASCII letters and digits, plus ı and ſ). */
export function upperAlnumClass(): string {
  return foldingClass('upper:alnum', 'upper', (f) => /^[A-Z0-9]$/.test(f));
}
