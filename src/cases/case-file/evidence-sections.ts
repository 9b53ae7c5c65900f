import type { CaseFileJob, CaseFileMaterial } from './case-file-material';
import { CASE_FILE_LIMITS } from './case-file-limits';
import { drawGraph } from './draw-graph';
import { clip, iso, thousands, yesNo } from './format';
import { layoutGraph } from './graph-layout';
import type { PdfWriter } from './pdf-writer';

/** How the file names the list version an answer was screened against, e.g. `ofac version 3, issued 2026-08-22`. */
export const listVersionText = (s: NonNullable<CaseFileJob['sanctionsList']>): string =>
  `${s.list} version ${s.version}, issued ${s.issueDate}`;

function jobLine(job: CaseFileJob): string {
  const outcome =
    job.status === 'completed'
      ? `${job.riskLevel ?? '?'} ${job.riskScore ?? '?'}`
      : job.status === 'failed'
        ? `failed (${job.errorCode ?? 'no code'})`
        : 'not finished';
  return (
    `${job.apiType} on ${job.chain}: ${job.target}. ${job.status === 'completed' ? 'Completed' : 'Submitted'} ` +
    `${iso(job.completedAt ?? job.createdAt)}. Outcome: ${outcome}.` +
    (job.referenceId ? ` Reference: ${job.referenceId}.` : '')
  );
}

/**
 * Per job: what was screened, the reference data and the versions it was screened against, and every finding with its
 * source.
 */
export function findingsSection(w: PdfWriter, m: CaseFileMaterial): void {
  w.heading('2. Findings', 2);
  w.paragraph(
    `From the stored answers of the case's jobs (attached to it, or whose alerts joined it): ${m.jobs.length} job(s) ` +
      `read, oldest first. Each finding names the rule it moved, the address it is on, and its source (the list or ` +
      `label set, with the list issue where it is one).`,
    { muted: true },
  );
  if (m.jobsNotRead.length > 0)
    w.paragraph(
      `${m.jobsNotRead.length} older job(s) of the case are not read here (a case file reads at most ` +
        `${CASE_FILE_LIMITS.jobs}): ${m.jobsNotRead.join(', ')}`,
      { muted: true },
    );
  if (m.jobsMissing.length > 0)
    w.paragraph(`Named by the case but not found in the account: ${m.jobsMissing.join(', ')}`, { muted: true });
  if (m.jobs.length === 0) w.paragraph('No job of the case could be read.');
  for (const job of m.jobs) {
    w.heading(`Job ${job.requestId}`, 3);
    w.paragraph(jobLine(job));
    w.paragraph(
      job.sanctionsList
        ? `Screened against: ${listVersionText(job.sanctionsList)}.`
        : 'Screened against: no sanctions list version recorded in the answer.',
      { bold: true },
    );
    if (job.riskReason) w.paragraph(`Reason given: ${job.riskReason}`);
    if (job.lists.length > 0)
      w.table(
        [
          { title: 'List', width: 80 },
          { title: 'Version', width: 34 },
          { title: 'Issued', width: 48 },
          { title: 'Loaded', width: 90 },
          { title: 'SHA-256 of the issue', width: 150, mono: true },
          { title: 'Read from', width: w.width - 402 },
        ],
        job.lists.map((l) => [
          l.list,
          l.version === null ? '-' : String(l.version),
          l.issueDate ?? '-',
          iso(l.loadedAt),
          l.sha256,
          l.source,
        ]),
        { size: 7 },
      );
    if (job.status !== 'completed') continue;
    if (job.hitCount === 0) {
      w.paragraph('No findings.', { muted: true });
      continue;
    }
    w.table(
      [
        { title: 'Rule', width: 54 },
        { title: 'Score', width: 24 },
        { title: 'Category', width: 72 },
        { title: 'Address', width: 118, mono: true },
        { title: 'Hop', width: 20 },
        { title: 'Source', width: 100, mono: true },
        { title: 'Detail', width: w.width - 388 },
      ],
      job.hits.map((h) => [
        h.rule,
        h.score === null ? '-' : String(h.score),
        h.category,
        h.address,
        h.hop === null ? '-' : String(h.hop),
        h.source ?? '-',
        clip(h.detail, 800),
      ]),
      { size: 7 },
    );
    if (job.hitCount > job.hits.length)
      w.paragraph(
        `${job.hitCount - job.hits.length} more finding(s) of this answer are not printed (at most ` +
          `${CASE_FILE_LIMITS.hitsPerJob} a job): GET /api/v1/kyt/job/${job.requestId}/fullresponse holds them all.`,
        { muted: true },
      );
  }
}

/** The latest graph of the case's jobs as a picture, with the table of its nodes and of its transfers. */
export function graphSection(w: PdfWriter, m: CaseFileMaterial): void {
  w.newPage();
  w.heading('3. The graph', 2);
  const withGraph = m.jobs.filter((j) => j.graph !== null);
  const latest = withGraph.at(-1) && [...withGraph].sort((a, b) => at(b) - at(a))[0];
  if (!latest?.graph) {
    w.paragraph('No job of this case holds a graph.');
    return;
  }
  const layout = layoutGraph(latest.graph, m.record.subject, {
    width: w.width,
    maxNodes: CASE_FILE_LIMITS.graphNodes,
    rowSpacing: 20,
    top: 30,
    bottom: 30,
  });
  w.paragraph(
    `The addresses and transfers of job ${latest.requestId} (${iso(latest.completedAt ?? latest.createdAt)}), the ` +
      `latest of the case: the screened parties in the middle, money coming in from the left (hop 1, 2, ... back) ` +
      `and going out to the right. ${layout.nodes.length} of ${layout.nodes.length + layout.omittedNodes} ` +
      `address(es) drawn` +
      (layout.omittedNodes > 0
        ? ` (at most ${CASE_FILE_LIMITS.graphNodes}: the subject, then those a list or label names, then the nearest)`
        : '') +
      `; ${layout.edges.length} transfer(s) between them` +
      (layout.omittedEdges > 0 ? `, ${layout.omittedEdges} other(s) not drawn.` : '.') +
      (latest.crawl ? ` ${crawlText(latest.crawl)}` : ''),
    { muted: true },
  );
  drawGraph(w, layout);
  w.heading('Addresses in the picture', 3);
  w.table(
    [
      { title: 'Node', width: 40 },
      { title: 'Hop', width: 24 },
      { title: 'Role', width: 90 },
      { title: 'Address', width: 200, mono: true },
      { title: 'Labels', width: w.width - 354 },
    ],
    layout.nodes.map((n) => [
      `${n.id}${n.subject ? ' (subject)' : ''}`,
      String(n.hop),
      n.role,
      n.address,
      n.labels.join(', ') || '-',
    ]),
    { size: 7 },
  );
  if (layout.edges.length > 0) {
    w.heading('Transfers in the picture', 3);
    const edges = layout.edges.slice(0, CASE_FILE_LIMITS.graphEdges);
    w.table(
      [
        { title: 'From', width: 50 },
        { title: 'To', width: 50 },
        { title: 'Asset', width: 70 },
        { title: 'Amount', width: 160, mono: true },
        { title: 'USD', width: w.width - 330 },
      ],
      edges.map((e) => [
        layout.nodes[e.from]?.id ?? '?',
        layout.nodes[e.to]?.id ?? '?',
        e.asset,
        e.amount,
        e.usd === null ? '-' : e.usd.toFixed(2),
      ]),
      { size: 7 },
    );
    if (layout.edges.length > edges.length)
      w.paragraph(`${layout.edges.length - edges.length} more transfer(s) drawn are not listed.`, { muted: true });
  }
}

function crawlText(c: NonNullable<CaseFileJob['crawl']>): string {
  if (!c.ran) return `The crawl did not run${c.note ? `: ${c.note}` : ''}.`;
  return (
    `The crawl reached hop ${c.depthReached} of ${c.depthPlanned}, ${c.nodesVisited} address(es) visited` +
    `${c.complete ? '' : ', stopped early'}${c.note ? ` (${c.note})` : ''}.`
  );
}

const at = (j: CaseFileJob) => (j.completedAt ?? j.createdAt).getTime();

/** The alerts that opened or joined the case, with the findings their fingerprint was made of. */
export function alertsSection(w: PdfWriter, m: CaseFileMaterial): void {
  w.heading('4. Alerts', 2);
  w.paragraph(
    `What opened or joined the case, newest first (at most ${CASE_FILE_LIMITS.alerts}). A suppressed alert matched ` +
      'the suppression a false positive left: it was recorded and opened nothing.',
    { muted: true },
  );
  if (m.alerts.length === 0) {
    w.paragraph('No alerts.');
    return;
  }
  w.table(
    [
      { title: 'At', width: 96 },
      { title: 'Source', width: 40 },
      { title: 'Job', width: 95, mono: true },
      { title: 'Severity', width: 36 },
      { title: 'Sanctions', width: 38 },
      { title: 'Suppressed', width: 46 },
      { title: 'Findings (rule category address)', width: w.width - 351 },
    ],
    m.alerts.map((a) => [
      iso(a.createdAt),
      a.source,
      a.requestId ?? '-',
      a.severity,
      yesNo(a.sanctions),
      yesNo(a.suppressed),
      clip(a.findings.join('\n'), 1200) || '-',
    ]),
    { size: 7 },
  );
}

/** Each job's signed answers: the JWS of the poll and of the full answer, and the poll's signed payload itself. */
export function signedAnswersSection(w: PdfWriter, m: CaseFileMaterial): void {
  w.newPage();
  w.heading('5. The signed answers', 2);
  w.paragraph(
    'For each job, the signature its poll returns (GET /api/v1/kyt/job/<id>, data.signature.jws) and the payload it ' +
      "signs: the RFC 8785 canonical JSON of the poll's data without its signature. Then the signature of the full " +
      'answer (GET /api/v1/kyt/job/<id>/fullresponse), whose payload is that answer the same way. Section 7 says how ' +
      'to check them. Long values are cut into lines of equal length: join them with nothing between.',
    { muted: true },
  );
  for (const job of m.jobs) {
    w.heading(`Job ${job.requestId}`, 3);
    if (!job.signatures) {
      w.paragraph(`No signature: the job is ${job.status} (only a completed answer is signed).`, { muted: true });
      continue;
    }
    const { poll, full } = job.signatures;
    w.paragraph(
      `Answer of GET /api/v1/kyt/job/${job.requestId}: signed by key ${poll.signature.kid} (EdDSA, Ed25519).`,
    );
    w.paragraph('JWS:', { bold: true, size: 7.5 });
    w.mono(poll.signature.jws, { together: true });
    if (poll.payload.length <= CASE_FILE_LIMITS.payloadChars) {
      w.paragraph(`Signed payload (${thousands(poll.payload.length)} characters):`, { bold: true, size: 7.5 });
      w.mono(poll.payload, { size: 6.5, muted: true });
    } else {
      w.paragraph(
        `Signed payload: ${thousands(poll.payload.length)} characters, longer than a case file prints ` +
          `(${thousands(CASE_FILE_LIMITS.payloadChars)}); it is the canonical JSON of the poll's data.`,
        { muted: true },
      );
    }
    w.paragraph(
      `Full answer of GET /api/v1/kyt/job/${job.requestId}/fullresponse ` +
        `(payload of ${thousands(full.payload.length)} characters, not printed): ` +
        `signed by key ${full.signature.kid}. JWS:`,
      { size: 7.5 },
    );
    w.mono(full.signature.jws, { together: true });
  }
}
