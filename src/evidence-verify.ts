/**
 * `npm run evidence:verify -- ANSWER.json [JWKS]`: checks the signature of a saved screening answer (the whole
 * HTTP body of GET /api/v1/kyt/job/:id or …/fullresponse, or its `data`) against the published keys. JWKS is a URL
 * or a file (default http://localhost:3000/.well-known/jwks.json). What is verified is always the answer's whole
 * `data` without its signature, with the request id, canonicalization and what is signed bound in the JWS's
 * protected header (src/platform/signing/verify-evidence.ts). Prints `valid` or `invalid` with the reason; exits 0
 * when valid, 1 when invalid, 2 when it could not check (no such file, no key set).
 */
import { readFile } from 'node:fs/promises';
import type { JSONWebKeySet } from 'jose';
import { verifyAnswerText } from './platform/signing/verify-evidence';
import { caseTrailDocument, verifyCaseTrail } from './cases/trail/verify-trail';
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
  const text = await readFile(answerFile, 'utf8').catch((err: Error) => {
    throw new CannotCheck(`cannot read the answer ${answerFile}: ${err.message}`);
  });
  const keys = await keySet(jwksSource);
  const parsed = (() => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  })();
  if (caseTrailDocument(parsed)) {
    // A case (GET /api/v1/cases/{id}) carries its audit trail: every entry signed like an answer, and hash-chained.
    try {
      const trail = await verifyCaseTrail(parsed, keys);
      process.stdout.write(
        `valid: the audit trail of case ${trail.caseId}, ${trail.entries} entries chained to head ${trail.head}, ` +
          `each signed by kid ${trail.kids.join(', ')} (EdDSA over its RFC 8785 canonical JSON)\n`,
      );
      return 0;
    } catch (err) {
      process.stdout.write(`invalid: ${err instanceof Error ? err.message : String(err)}\n`);
      return 1;
    }
  }
  try {
    const { kid, requestId } = await verifyAnswerText(text, keys);
    process.stdout.write(
      `valid: the whole data of answer ${requestId} signed by kid ${kid} (EdDSA over its RFC 8785 canonical JSON)\n`,
    );
    return 0;
  } catch (err) {
    // Whatever is wrong with the answer or its signature (jose's errors included) makes it invalid, never valid.
    process.stdout.write(`invalid: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${err instanceof CannotCheck ? err.message : `evidence:verify failed: ${String(err)}`}\n`);
    process.exit(2);
  },
);
