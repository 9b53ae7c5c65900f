/**
 * The first member name that occurs twice in one object of `text`, which must be valid JSON (JSON.parse it first).
 *
 * JSON.parse keeps the last of two equal names and drops the first without a word, while other readers keep the
 * first: a saved answer holding `"risk_level":"LOW"` before the signed `"risk_level":"HIGH"` would verify, and a
 * person or a tool reading it would see LOW. A verifier refuses such a text instead of choosing for its reader.
 */
export function duplicateMemberName(text: string): string | undefined {
  /** The names seen in each open object; null for an open array. */
  const open: (Set<string> | null)[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c !== '"') {
      if (c === '{') open.push(new Set());
      else if (c === '[') open.push(null);
      else if (c === '}' || c === ']') open.pop();
      i += 1;
      continue;
    }
    let end = i + 1;
    while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
    let next = end + 1;
    while (text[next] === ' ' || text[next] === '\t' || text[next] === '\n' || text[next] === '\r') next += 1;
    const names = open.at(-1);
    // In valid JSON only a member name is followed by a colon; its escapes are decoded (\u0072isk_level is risk_level).
    if (text[next] === ':' && names) {
      const name = JSON.parse(text.slice(i, end + 1)) as string;
      if (names.has(name)) return name;
      names.add(name);
    }
    i = end + 1;
  }
  return undefined;
}
