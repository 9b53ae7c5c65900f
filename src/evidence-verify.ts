/**
 * `npm run evidence:verify -- ANSWER.json [JWKS]`: checks the signature of a saved screening answer (the whole
 * HTTP body of GET /api/v1/kyt/job/:id or …/fullresponse) against the published keys. JWKS is a URL or a file
 * (default http://localhost:3000/.well-known/jwks.json). Prints `valid` or `invalid` with the kid; exits 0 when
 * valid, 1 when invalid, 2 when it could not check (no such file, no key set).
 */
import { readFile } from 'node:fs/promises';
import type { JSONWebKeySet } from 'jose';
import { evidenceSignatureSchema } from './platform/signing/evidence-signature';
import { verifyEvidence } from './platform/signing/verify-evidence';
import { deadline } from './platform/abort/deadline';

const DEFAULT_JWKS = 'http://localhost:3000/.well-known/jwks.json';
const USAGE = `usage: npm run evidence:verify -- ANSWER.json [JWKS URL or file, default ${DEFAULT_JWKS}]`;

class CannotCheck extends Error {}

async function readJson(file: string, what: string): Promise<unknown> {
  const text = await readFile(file, 'utf8').catch((err: Error) => {
    throw new CannotCheck(`cannot read the ${what} ${file}: ${err.message}`);
  });
  try {
    return JSON.parse(text);
  } catch {
    throw new CannotCheck(`the ${what} ${file} is not JSON`);
  }
}

async function keySet(source: string): Promise<JSONWebKeySet> {
  let jwks: unknown;
  if (/^https?:\/\//i.test(source)) {
    const limit = deadline(10_000);
    try {
      const res = await fetch(source, { signal: limit.signal }).catch((err: Error) => {
        throw new CannotCheck(`cannot fetch ${source}: ${err.message}`);
      });
      if (!res.ok) throw new CannotCheck(`${source} answered ${res.status}`);
      jwks = await res.json().catch(() => undefined);
    } finally {
      limit.dispose();
    }
  } else {
    jwks = await readJson(source, 'key set');
  }
  if (!Array.isArray((jwks as JSONWebKeySet | undefined)?.keys)) throw new CannotCheck(`${source} holds no JWKS`);
  return jwks as JSONWebKeySet;
}

async function main(): Promise<number> {
  const [answerFile, jwksSource = DEFAULT_JWKS, ...extra] = process.argv.slice(2);
  if (!answerFile || extra.length > 0) throw new CannotCheck(USAGE);
  const body = (await readJson(answerFile, 'answer')) as { data?: Record<string, unknown> } | null;
  // The whole HTTP body, or its `data` alone.
  const data = (body?.data ?? body) as Record<string, unknown> | null;
  const signature = evidenceSignatureSchema.safeParse(data?.signature);
  if (!signature.success) {
    process.stdout.write('invalid: the answer carries no signature (only completed jobs are signed)\n');
    return 1;
  }
  const { kid, signed } = signature.data;
  // `data`: the answer's data without its signature member; any other name: that member of data.
  const { signature: _signature, ...unsigned } = data ?? {};
  const value = signed === 'data' ? unsigned : data?.[signed];
  if (!data || (signed !== 'data' && !Object.hasOwn(data, signed))) {
    process.stdout.write(`invalid: the signed member data.${signed} is missing (kid ${kid})\n`);
    return 1;
  }
  const keys = await keySet(jwksSource);
  try {
    await verifyEvidence(signature.data, value, keys);
  } catch (err) {
    process.stdout.write(`invalid: ${err instanceof Error ? err.message : String(err)} (kid ${kid})\n`);
    return 1;
  }
  process.stdout.write(
    `valid: ${signed === 'data' ? 'data' : `data.${signed}`} signed by kid ${kid} (EdDSA over its ` +
      `RFC 8785 canonical JSON)\n`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${err instanceof CannotCheck ? err.message : `evidence:verify failed: ${String(err)}`}\n`);
    process.exit(2);
  },
);
