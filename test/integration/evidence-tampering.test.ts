import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CompactSign, exportJWK, generateKeyPair, importJWK } from 'jose';
import { canonicalJson } from '../../src/platform/signing/detached-jws';
import { generateSigningJwk } from '../../src/platform/signing/generate-signing-key';
import type { PrivateSigningJwk } from '../../src/platform/signing/signing-jwk';
import { pollUntilDone, startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * issue 28: a saved answer can be trusted only as far as `npm run evidence:verify` refuses every way of changing it.
 * Real signed answers (a completed job's poll and full response, and a second job's) are tampered with in each way
 * below, written to a file, and checked by the real command as a customer runs it; the untouched answers pass. Each
 * tampering that changes what was signed is also checked with the jose snippet of docs/api.md, run as written.
 * The stack signs with a configured key (EVIDENCE_SIGNING_KEYS, as production does), so the test holds the private
 * key and can make the one forgery only a key holder could: a signature in the old format (no request id bound).
 */

const SANCTIONED_EVM = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c'; // OFAC SDN; no ethereum node: reference data only
const PARALLEL = 4;
const COMMAND_TIMEOUT_MS = 120_000;

type Json = any;
interface Answers {
  /** The bodies exactly as the api sent them. */
  pollText: string;
  fullText: string;
  poll: Json;
  full: Json;
  /** A second job of the same account and target. */
  otherPoll: Json;
  jwks: { keys: Json[] };
  key: PrivateSigningJwk;
}
interface Tampered {
  /** The answer file's content: an object (written as JSON) or the exact text. */
  answer: Json | string;
  /** The key set the verifier is given (default: the one the stack publishes). */
  jwks?: Json;
}

const clone = <T>(value: T): T => structuredClone(value);
const headerOf = (jws: string) => JSON.parse(Buffer.from(jws.split('.')[0] as string, 'base64url').toString());
const encodeHeader = (header: Json) => Buffer.from(JSON.stringify(header)).toString('base64url');
const detached = (jws: string) => jws.replace(/\.[^.]*\./, '..');
const unsignedData = (answer: Json) => {
  const { signature: _signature, ...data } = answer.data;
  return data;
};
const withData = (answer: Json, data: Json) => ({ ...answer, data });
/** The poll answer with `edit` applied to a copy of its data, its signature unchanged. */
const edited = (answer: Json, edit: (data: Json) => void) => {
  const copy = clone(answer);
  edit(copy.data);
  return copy;
};
/** A JWS over `data` (canonical JSON) under `header`, signed with `key`, detached. */
async function forge(data: Json, header: Json, key: Parameters<CompactSign['sign']>[0]): Promise<string> {
  const jws = await new CompactSign(new TextEncoder().encode(canonicalJson(data)))
    .setProtectedHeader(header)
    .sign(key, { crit: Object.fromEntries((header.crit ?? []).map((name: string) => [name, true])) });
  return detached(jws);
}

interface Tampering {
  name: string;
  make: (a: Answers) => Promise<Tampered> | Tampered;
  /**
   * Checked by the command only: what was signed is intact and only the command's extra checks see the change (an
   * unsigned member or copy, a member name given twice), which the docs' short snippet does not make.
   */
  commandOnly?: true;
}

const TAMPERINGS: Tampering[] = [
  {
    name: 'risk_level changed HIGH -> LOW',
    make: (a) => ({ answer: edited(a.poll, (d) => (d.response.risk_level = 'LOW')) }),
  },
  {
    name: 'risk_score changed 100 -> 0',
    make: (a) => ({ answer: edited(a.poll, (d) => (d.response.risk_score = 0)) }),
  },
  {
    name: 'the sanctions list version changed',
    make: (a) => ({ answer: edited(a.poll, (d) => (d.response.sanctions_list.version += 1)) }),
  },
  { name: 'credits_charged changed', make: (a) => ({ answer: edited(a.poll, (d) => (d.credits_charged = 0)) }) },
  {
    name: "request_id changed to the other job's",
    make: (a) => ({ answer: edited(a.poll, (d) => (d.request_id = a.otherPoll.data.request_id)) }),
  },
  {
    name: 'the full response: risk_level changed',
    make: (a) => ({ answer: edited(a.full, (d) => (d.response.risk_level = 'LOW')) }),
  },
  {
    name: 'the attestation move: level LOW, the original data under data.attestation, signed: "attestation"',
    make: (a) => ({
      answer: edited(a.poll, (d) => {
        d.attestation = unsignedData(a.poll);
        d.response.risk_level = 'LOW';
        d.signature.signed = 'attestation';
      }),
    }),
  },
  {
    name: 'data.response renamed to data.result',
    make: (a) => ({
      answer: edited(a.poll, (d) => {
        d.result = d.response;
        delete d.response;
      }),
    }),
  },
  {
    name: 'the whole data nested under data.evidence with signed naming it',
    make: (a) => ({
      answer: withData(a.poll, {
        evidence: unsignedData(a.poll),
        signature: { ...a.poll.data.signature, signed: 'evidence' },
      }),
    }),
  },
  { name: 'a member added to data', make: (a) => ({ answer: edited(a.poll, (d) => (d.verdict = 'cleared')) }) },
  { name: 'a member removed from data', make: (a) => ({ answer: edited(a.poll, (d) => delete d.reference_id) }) },
  {
    name: 'a member added to the body beside data',
    make: (a) => ({ answer: { ...clone(a.poll), verdict: 'LOW' } }),
    commandOnly: true,
  },
  {
    name: "another job's signature pasted in",
    make: (a) => ({ answer: edited(a.poll, (d) => (d.signature = clone(a.otherPoll.data.signature))) }),
  },
  {
    name: "the poll's signature on the full response",
    make: (a) => ({ answer: edited(a.full, (d) => (d.signature = clone(a.poll.data.signature))) }),
  },
  {
    name: "the full response's signature on the poll",
    make: (a) => ({ answer: edited(a.poll, (d) => (d.signature = clone(a.full.data.signature))) }),
  },
  {
    name: 'the signing key removed from the key set',
    make: (a) => ({ answer: clone(a.poll), jwks: { keys: a.jwks.keys.filter((k) => k.kid !== a.key.kid) } }),
  },
  {
    name: 'alg none: the header re-encoded with alg none, the signature emptied',
    make: (a) => ({
      answer: edited(a.poll, (d) => {
        d.response.risk_level = 'LOW';
        d.signature.jws = `${encodeHeader({ ...headerOf(d.signature.jws), alg: 'none' })}..`;
      }),
    }),
  },
  {
    name: "HS256 keyed with the public key's bytes",
    make: async (a) => {
      const answer = edited(a.poll, (d) => (d.response.risk_level = 'LOW'));
      const header = { ...headerOf(a.poll.data.signature.jws), alg: 'HS256' };
      answer.data.signature.jws = await forge(unsignedData(answer), header, Buffer.from(a.key.x, 'base64url'));
      return { answer };
    },
  },
  {
    name: 'an oct key under the kid in the key set, and an HS256 signature with it',
    make: async (a) => {
      const secret = Buffer.from(a.key.x, 'base64url');
      const answer = edited(a.poll, (d) => (d.response.risk_level = 'LOW'));
      const header = { ...headerOf(a.poll.data.signature.jws), alg: 'HS256' };
      answer.data.signature.jws = await forge(unsignedData(answer), header, secret);
      const oct = { kty: 'oct', k: secret.toString('base64url'), kid: a.key.kid, alg: 'HS256' };
      return { answer, jwks: { keys: [oct] } };
    },
  },
  {
    name: "an EC P-256 key under the kid in the key set, and the forger's ES256 signature",
    make: async (a) => {
      const forger = await generateKeyPair('ES256', { extractable: true });
      const answer = edited(a.poll, (d) => (d.response.risk_level = 'LOW'));
      const header = { ...headerOf(a.poll.data.signature.jws), alg: 'ES256' };
      answer.data.signature.jws = await forge(unsignedData(answer), header, forger.privateKey);
      const ec = { ...(await exportJWK(forger.publicKey)), kid: a.key.kid, alg: 'ES256' };
      return { answer, jwks: { keys: [ec] } };
    },
  },
  {
    name: 'typ changed in the protected header',
    make: (a) => ({
      answer: edited(a.poll, (d) => {
        const [, , sig] = d.signature.jws.split('.');
        d.signature.jws = `${encodeHeader({ ...headerOf(d.signature.jws), typ: 'JWT' })}..${sig}`;
      }),
    }),
  },
  {
    name: 'signature bytes flipped',
    make: (a) => ({
      answer: edited(a.poll, (d) => {
        const [header, , sig] = d.signature.jws.split('.');
        const bytes = Buffer.from(sig, 'base64url');
        bytes[10] = (bytes[10] as number) ^ 0xff;
        d.signature.jws = `${header}..${bytes.toString('base64url')}`;
      }),
    }),
  },
  {
    name: 'the outer kid changed',
    make: (a) => ({ answer: edited(a.poll, (d) => (d.signature.kid = 'evidence-2020-01')) }),
    commandOnly: true,
  },
  { name: 'the signature object removed', make: (a) => ({ answer: edited(a.poll, (d) => delete d.signature) }) },
  {
    name: 'a member name given twice: LOW before the signed HIGH (JSON.parse keeps the last)',
    make: (a) => {
      // The response is spliced in as Postgres writes jsonb (`"risk_level": "HIGH"`).
      const text = a.pollText.replace(/"risk_level": ?"HIGH"/, '"risk_level": "LOW", "risk_level": "HIGH"');
      expect(text).not.toBe(a.pollText);
      return { answer: text };
    },
    commandOnly: true,
  },
  {
    name: 'a signature in the old format (no request id or crit in the header) by the real key',
    make: async (a) => {
      const answer = clone(a.poll);
      const key = await importJWK({ kty: 'OKP', crv: 'Ed25519', x: a.key.x, d: a.key.d }, 'EdDSA');
      const header = { alg: 'EdDSA', kid: a.key.kid, typ: 'chainscreen-evidence+jws' };
      answer.data.signature.jws = await forge(unsignedData(answer), header, key);
      return { answer };
    },
  },
];

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: COMMAND_TIMEOUT_MS }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

/** Runs `tasks` at most `limit` at a time (each one a child process: the machine has few cores). */
async function inBatches<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const lanes = Array.from({ length: limit }, async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  });
  await Promise.all(lanes);
  return results;
}

/** The ```js block of docs/api.md's "Verifying an answer", exactly as a customer would copy it. */
async function docsSnippet(): Promise<string> {
  const docs = await readFile('docs/api.md', 'utf8');
  const section = docs.slice(docs.indexOf('## Verifying an answer'));
  const match = /```js\n([\s\S]*?)```/.exec(section);
  if (!match?.[1]) throw new Error('docs/api.md has no jose snippet under "Verifying an answer"');
  return match[1];
}

describe('tampered signed answers (issue 28)', () => {
  let stack: TestStack;
  let jwksServer: Server;
  let jwksUrl: string;
  let dir: string;
  let snippetFile: string;
  const served = new Map<string, string>();
  const command: Record<string, Outcome> = {};
  const snippet: Record<string, Outcome> = {};
  let untouched: { command: Outcome[]; snippet: Outcome[] };

  beforeAll(async () => {
    const key = await generateSigningJwk();
    stack = await startTestStack({ env: { EVIDENCE_SIGNING_KEYS: JSON.stringify({ keys: [key] }) } });
    jwksServer = createServer((req, res) => {
      const body = served.get(req.url ?? '');
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(body ?? '{}');
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}`;
    dir = await mkdtemp(path.join(tmpdir(), 'evidence-tampering-'));
    // Inside the checkout, so that the snippet's `import 'jose'` resolves as it would in a customer's project.
    await mkdir('.tmp', { recursive: true });
    const snippetDir = await mkdtemp(path.resolve('.tmp', 'evidence-snippet-'));
    snippetFile = path.join(snippetDir, 'verify.mjs');
    await writeFile(snippetFile, await docsSnippet());

    // Two real jobs of one account, completed; the bodies saved exactly as sent.
    const user = await stack.createUser({ credits: 5 });
    const ids: string[] = [];
    for (const _ of [1, 2]) {
      const submit = await stack.http('POST', '/api/v1/kyt/job', {
        key: user.key,
        body: { chain: 'ethereum', address: SANCTIONED_EVM },
      });
      expect(submit.status).toBe(202);
      ids.push(submit.body.data.request_id);
    }
    for (const id of ids) expect((await pollUntilDone(stack, user.key, id, 60_000)).data.status).toBe('completed');
    const saved = async (urlPath: string) => {
      const res = await fetch(`${stack.api.url}${urlPath}`, { headers: { 'x-api-key': user.key } });
      expect(res.status).toBe(200);
      return res.text();
    };
    const [pollText, fullText, otherText, jwksText] = await Promise.all([
      saved(`/api/v1/kyt/job/${ids[0]}`),
      saved(`/api/v1/kyt/job/${ids[0]}/fullresponse`),
      saved(`/api/v1/kyt/job/${ids[1]}`),
      (await fetch(`${stack.api.url}/.well-known/jwks.json`)).text(),
    ]);
    const answers: Answers = {
      pollText,
      fullText,
      poll: JSON.parse(pollText),
      full: JSON.parse(fullText),
      otherPoll: JSON.parse(otherText),
      jwks: JSON.parse(jwksText),
      key,
    };
    // What the tamperings change must be there to change: a signed completed answer naming its list version.
    expect(answers.poll.data).toMatchObject({ status: 'completed', signature: { kid: key.kid, signed: 'data' } });
    expect(answers.poll.data.response.sanctions_list).toMatchObject({ version: expect.any(Number) });
    expect(answers.jwks.keys.map((k) => k.kid)).toEqual([key.kid]);

    /** Writes one answer and its key set, and checks it with the command and (unless told not to) the snippet. */
    const check = async (name: string, tampered: Tampered, withSnippet: boolean) => {
      const slug = name.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 60);
      const answerFile = path.join(dir, `${slug}.json`);
      const jwksFile = path.join(dir, `${slug}.jwks.json`);
      const jwksText = JSON.stringify(tampered.jwks ?? answers.jwks);
      await writeFile(
        answerFile,
        typeof tampered.answer === 'string' ? tampered.answer : JSON.stringify(tampered.answer, null, 2),
      );
      await writeFile(jwksFile, jwksText);
      served.set(`/${slug}.json`, jwksText);
      const byCommand = await run('npm', ['run', 'evidence:verify', '--', answerFile, jwksFile]);
      const bySnippet = withSnippet
        ? await run(process.execPath, [snippetFile, answerFile, `${jwksUrl}/${slug}.json`])
        : undefined;
      return { byCommand, bySnippet };
    };

    const cases = await Promise.all(TAMPERINGS.map(async (t) => ({ ...t, tampered: await t.make(answers) })));
    const tasks = cases.map(({ name, tampered, commandOnly }) => async () => {
      const { byCommand, bySnippet } = await check(name, tampered, !commandOnly);
      command[name] = byCommand;
      if (bySnippet) snippet[name] = bySnippet;
    });
    untouched = { command: [], snippet: [] };
    for (const [label, text] of [
      ['untouched poll', pollText],
      ['untouched full response', fullText],
    ] as const)
      tasks.push(async () => {
        const { byCommand, bySnippet } = await check(label, { answer: text }, true);
        untouched.command.push(byCommand);
        untouched.snippet.push(bySnippet as Outcome);
      });
    await inBatches(tasks, PARALLEL);
  }, 600_000);

  afterAll(async () => {
    await stack?.stop();
    await new Promise((resolve) => jwksServer?.close(resolve));
    if (dir) await rm(dir, { recursive: true, force: true });
    if (snippetFile) await rm(path.dirname(snippetFile), { recursive: true, force: true });
  });

  test('the untouched poll and full response verify: exit 0, valid, with the command and the docs snippet', () => {
    expect(untouched.command).toHaveLength(2);
    expect(untouched.snippet).toHaveLength(2);
    for (const outcome of untouched.command) {
      expect(outcome).toMatchObject({ code: 0 });
      expect(outcome.stdout).toMatch(/^valid: the whole data of answer [0-9a-f-]{36} signed by kid /m);
    }
    for (const outcome of untouched.snippet) {
      expect(outcome).toMatchObject({ code: 0 });
      expect(outcome.stdout).toMatch(/^valid: answer [0-9a-f-]{36}, signed by /m);
    }
  });

  test('there are at least 15 tamperings', () => {
    expect(TAMPERINGS.length).toBeGreaterThanOrEqual(15);
  });

  test.each(TAMPERINGS.map(({ name }) => name))(
    'when the answer is tampered with (%s), then npm run evidence:verify exits 1 with invalid',
    (name) => {
      const outcome = command[name];
      expect(outcome).toBeDefined();
      expect(outcome?.stdout).toMatch(/^invalid: /m);
      expect(outcome?.stdout).not.toMatch(/^valid/m);
      expect(outcome?.code).toBe(1);
    },
  );

  test.each(TAMPERINGS.filter((t) => !t.commandOnly).map(({ name }) => name))(
    'when the answer is tampered with (%s), then the jose snippet of docs/api.md refuses it too',
    (name) => {
      const outcome = snippet[name];
      expect(outcome).toBeDefined();
      expect(outcome?.code).toBe(1); // the snippet throws: node exits 1
      expect(outcome?.stdout).not.toMatch(/^valid/m);
    },
  );
});
