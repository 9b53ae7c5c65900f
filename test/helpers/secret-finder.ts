/**
 * Finds which of many secrets occur in many lines, fast enough for a whole test run (tens of thousands of
 * secrets, tens of megabytes of log). Every secret made of "token" characters (base64, base64url, hex, JWT
 * dots) lies inside one maximal run of such characters in a line, so only those runs are searched, each
 * position looked up by the secret's first PREFIX characters; other secrets are searched for plainly.
 */
const TOKEN_RUN = /[A-Za-z0-9_\-+/=.]+/g;
const TOKEN_ONLY = /^[A-Za-z0-9_\-+/=.]+$/;
const PREFIX = 10;

export interface SecretHit {
  lineNumber: number;
  secret: string;
}

export function findSecrets(lines: readonly string[], secrets: Iterable<string>): SecretHit[] {
  const byPrefix = new Map<string, string[]>();
  const plain: string[] = [];
  let shortest = Infinity;
  for (const secret of new Set(secrets)) {
    if (secret.length >= PREFIX && TOKEN_ONLY.test(secret)) {
      const key = secret.slice(0, PREFIX);
      byPrefix.set(key, [...(byPrefix.get(key) ?? []), secret]);
      shortest = Math.min(shortest, secret.length);
    } else {
      plain.push(secret);
    }
  }
  const hits: SecretHit[] = [];
  lines.forEach((line, index) => {
    const found = new Set<string>();
    for (const run of line.matchAll(TOKEN_RUN)) {
      const token = run[0];
      if (token.length < shortest) continue;
      for (let i = 0; i + shortest <= token.length; i++) {
        for (const secret of byPrefix.get(token.slice(i, i + PREFIX)) ?? []) {
          if (token.startsWith(secret, i)) found.add(secret);
        }
      }
    }
    for (const secret of plain) if (line.includes(secret)) found.add(secret);
    for (const secret of found) hits.push({ lineNumber: index + 1, secret });
  });
  return hits;
}
