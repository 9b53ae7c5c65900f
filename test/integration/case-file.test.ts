import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTeam, type TestTeam } from '../helpers/teams';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { until } from '../helpers/until';

/**
 * The case file on a real stack (issue 30, item 3): a KYA job on an address of the shipped OFAC list opens a
 * sanctions case; after a comment and a proposal, GET /api/v1/cases/{id}/file is a PDF whose text (read back with
 * pdfjs-dist, as any reader would) holds the subject, a finding's source, the list version, a trail entry's hash and
 * action, and the JWS the job's poll returns. Another team's key, an unknown and a malformed id: 404.
 */
// Listed in the shipped list (the README's walk-through address).
const LISTED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';
const ROOT = path.join(__dirname, '..', '..');
/** Where the file of the run is left, to be looked at (`pdftoppm -png /tmp/case-file.pdf page`). */
const SAVED = path.join(tmpdir(), 'case-file.pdf');

/**
 * The text of every page, in drawing order. pdfjs-dist ships ES modules only, which jest's CommonJS runtime cannot
 * load: it runs in a node of its own.
 */
async function pdfText(file: string): Promise<string> {
  const script = `
    import { readFileSync } from 'node:fs';
    import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
    const pdf = await getDocument({ data: new Uint8Array(readFileSync(process.argv[1])), verbosity: 0 }).promise;
    let out = '';
    for (let i = 1; i <= pdf.numPages; i++) {
      const content = await (await pdf.getPage(i)).getTextContent();
      out += content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\\n' : '') : '')).join('') + '\\n';
    }
    process.stdout.write(out);`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, file], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** Long values are cut into lines of equal length in the file: compare without any whitespace. */
const squeezed = (text: string) => text.replace(/\s+/g, '');

let stack: TestStack;
let team: TestTeam;
let other: TestTeam;

const member = (role: string) => team.members.find((m) => m.role === role) as TestTeam['members'][0];

const fileOf = (id: string, key: string) =>
  fetch(`${stack.api.url}/api/v1/cases/${id}/file`, { headers: { 'x-api-key': key } });

beforeAll(async () => {
  stack = await startTestStack();
  team = await createTeam(stack, { roles: ['admin', 'analyst', 'approver'], credits: 20 });
  other = await createTeam(stack, { roles: ['admin'], credits: 1 });
}, 120_000);

afterAll(async () => stack?.stop());

describe('the case file', () => {
  let caseId: string;
  let requestId: string;

  test('when a sanctions case has a job, a comment and a proposal, ' +
    'then its file is a PDF an auditor can read', async () => {
    // Arrange: a KYA job on a listed address opens a case; a member comments and proposes
    const analyst = member('analyst');
    const submitted = await stack.http('POST', '/api/v1/kyt/job', {
      key: analyst.key,
      body: { chain: 'ethereum', address: LISTED, reference_id: 'case-file' },
    });
    expect(submitted.status).toBe(202);
    requestId = submitted.body.data.request_id;
    const poll = await until('the answer', async () => {
      const r = await stack.http('GET', `/api/v1/kyt/job/${requestId}`, { key: analyst.key });
      return r.body.data?.status === 'completed' ? r.body.data : null;
    });
    const opened = await until('the case', async () => {
      const r = await stack.http('GET', `/api/v1/cases?subject=${LISTED}`, { key: analyst.key });
      const c = r.body.data?.[0];
      return c && c.trail_length >= 1 ? c : null;
    });
    caseId = opened.id;
    expect(opened).toMatchObject({ sanctions: true, chain: 'ethereum' });
    const comment = 'Checked the counterparties: the address is the listed one.';
    expect(
      (await stack.http('POST', `/api/v1/cases/${caseId}/comment`, { key: analyst.key, body: { text: comment } }))
        .status,
    ).toBe(200);
    const proposed = await stack.http('POST', `/api/v1/cases/${caseId}/propose`, {
      key: analyst.key,
      body: { disposition: 'true_positive', note: 'Listed by OFAC' },
    });
    expect(proposed.status).toBe(200);
    expect(proposed.body.data.state).toBe('proposed');
    const full = (await stack.http('GET', `/api/v1/kyt/job/${requestId}/fullresponse`, { key: analyst.key })).body.data;
    const trail = (await stack.http('GET', `/api/v1/cases/${caseId}`, { key: analyst.key })).body.data.trail;
    const commented = trail.find((e: { action: string }) => e.action === 'comment');
    expect(commented).toBeDefined();

    // Act
    const res = await fileOf(caseId, member('approver').key);
    const bytes = Buffer.from(await res.arrayBuffer());
    await writeFile(SAVED, bytes);

    // Assert: a PDF, as an attachment named for the case
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/pdf/);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="case-${caseId}.pdf"`);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // ... whose text holds the subject, the findings' sources, the list version, the trail and the signed answer
    const text = await pdfText(SAVED);
    const flat = squeezed(text);
    expect(text).toContain(LISTED);
    expect(text).toContain(`Case ${caseId}`);
    expect(text).toMatch(/State\s+proposed/);
    const source = full.response.hits.find((h: { source: string | null }) => h.source)?.source as string;
    expect(source).toBeTruthy();
    expect(flat).toContain(squeezed(source));
    const list = poll.response.sanctions_list;
    expect(list).toBeDefined();
    expect(text).toContain(`Screened against: ${list.list} version ${list.version}, issued ${list.issue_date}.`);
    expect(flat).toContain(commented.hash);
    expect(flat).toContain(commented.prev_hash);
    expect(text).toContain(commented.signature.kid);
    expect(text).toMatch(/\bcomment\b/);
    expect(text).toContain('propose');
    expect(flat).toContain(squeezed(comment));
    // The JWS is the one the poll returns (Ed25519 is deterministic): printed in lines of equal length
    expect(flat).toContain(poll.signature.jws);
    expect(flat).toContain(full.signature.jws);
    // The signed payload printed is what the JWS signs: the canonical JSON of the poll's data without its signature
    expect(flat).toContain(squeezed(`"request_id":"${requestId}"`));
    // And how to check it all without our software
    expect(text).toContain('/.well-known/jwks.json');
    expect(text).toContain('RFC 8785');
    expect(text).toContain('How to verify this file');
  }, 120_000);

  test(
    "when another team's key, an unknown id or a malformed id asks, " + 'then 404 like GET /api/v1/cases/{id}',
    async () => {
      const key = other.members[0]?.key as string;
      const theirs = await fileOf(caseId, key);
      expect(theirs.status).toBe(404);
      const body = await theirs.json();
      expect(body).toEqual((await stack.http('GET', `/api/v1/cases/${caseId}`, { key })).body);
      expect((await fileOf('00000000-0000-4000-8000-000000000000', member('analyst').key)).status).toBe(404);
      expect((await fileOf('not-a-uuid', member('analyst').key)).status).toBe(404);
      expect((await fetch(`${stack.api.url}/api/v1/cases/${caseId}/file`)).status).toBe(401);
    },
  );
});
