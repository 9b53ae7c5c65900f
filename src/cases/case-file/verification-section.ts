import type { CaseFileMaterial } from './case-file-material';
import type { PdfWriter } from './pdf-writer';

/** How an auditor checks the file with public standards only, in words. */
export function verificationSection(w: PdfWriter, m: CaseFileMaterial): void {
  const id = m.record.id;
  w.turn('portrait');
  w.heading('7. How to verify this file', 2);
  const steps: [string, string][] = [
    [
      'Standards only',
      'Everything here is checked with public standards and any implementation of them: SHA-256 (FIPS 180-4), the ' +
        'JSON Canonicalization Scheme (RFC 8785: keys sorted, no whitespace, numbers in their shortest form), JSON ' +
        'Web Signature (RFC 7515) with Ed25519 (RFC 8037, alg EdDSA) and base64url without padding (RFC 4648, ' +
        'section 5). No software of ours is needed.',
    ],
    [
      'Reading long values',
      'Hashes, signatures and JSON are printed in a fixed-width font, cut into lines of equal length: join the ' +
        "lines of one value with nothing between them. The file's text can be copied out of the PDF.",
    ],
    [
      'The keys',
      'The service publishes its public keys as a JSON Web Key Set at /.well-known/jwks.json on its address (no ' +
        'credentials needed): each an Ed25519 key (kty OKP, crv Ed25519) named by its kid. Keys that signed ' +
        'earlier answers stay published after a rotation. Keep a copy of the key set with this file, and the ' +
        'check does not depend on the service running.',
    ],
    [
      'A signed answer (section 5)',
      'The JWS is compact with a detached payload: <protected header>..<signature>. Take the payload printed under ' +
        'it (the RFC 8785 canonical JSON of the answer\'s data without its "signature" member), encode its UTF-8 ' +
        'bytes as base64url, put that between the two dots, and verify the Ed25519 signature with the key of the ' +
        'set whose kid the header names. Then decode the protected header (base64url, JSON): typ must be ' +
        "chainscreen-evidence+jws, request_id the job's request id (the payload's request_id), canon RFC8785, " +
        'signed data, and crit exactly request_id, canon and signed. The payload names the sanctions list version ' +
        'the job was screened against (response.sanctions_list). The same answer fetched again from GET ' +
        '/api/v1/kyt/job/<id> carries the same JWS; the full answer (/fullresponse) is checked the same way.',
    ],
    [
      'The audit trail (section 6)',
      `Each entry is a JSON object (request_id "case:${id}:<seq>", case_id, seq, at, actor, action, detail, ` +
        'before, after, prev_hash, hash, signature). Its hash is the SHA-256, in lowercase hex, of the RFC 8785 ' +
        'canonical JSON of the entry without "hash" and "signature". The first entry\'s prev_hash is the SHA-256 ' +
        `(hex) of the text "case:${id}"; every later entry's prev_hash is the hash of the entry before it, and its ` +
        '"before" is the "after" of the entry before it. So no entry can be changed, dropped, reordered or taken ' +
        "from another case without breaking the chain, which can be followed on paper in section 6. Each entry's " +
        'signature is a detached JWS like an answer\'s, over the canonical JSON of the entry without "signature" ' +
        '(its hash included), with request_id "case:<case id>:<seq>" in its header, made with the key kid names. ' +
        `The complete entries (with "before" and "after") are the trail of GET /api/v1/cases/${id}: their hashes ` +
        'must be the ones printed here.',
    ],
    [
      'With our tool',
      'Optionally, from the service\'s repository: "npm run evidence:verify -- answer.json [JWKS]" checks a saved ' +
        'answer, and the same with a saved GET /api/v1/cases/<id> body checks the whole trail.',
    ],
  ];
  for (const [title, text] of steps) {
    w.paragraph(title, { bold: true, size: 9 });
    w.paragraph(text, { size: 8.5 });
  }
  w.paragraph(
    `This file was made ${m.generatedAt.toISOString()} for account ${m.accountId}. It states the case as it stood ` +
      `then (trail entry ${m.record.trailLength}).`,
    { muted: true },
  );
}
