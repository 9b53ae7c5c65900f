import PDFDocument from 'pdfkit';
import { needsFourEyes } from '../domain/case-model';
import type { CaseFileMaterial } from './case-file-material';
import { CASE_FILE_LIMITS } from './case-file-limits';
import { alertsSection, findingsSection, graphSection, signedAnswersSection } from './evidence-sections';
import { iso, roleIn, thousands, yesNo } from './format';
import { PdfWriter } from './pdf-writer';
import { trailSection } from './trail-section';
import { verificationSection } from './verification-section';

const PAGE = { size: 'A4', margins: { top: 40, bottom: 40, left: 40, right: 40 } };

function subjectSection(w: PdfWriter, m: CaseFileMaterial): void {
  const c = m.record;
  const s = c.snapshot;
  const trailEntries = [...m.trail.head, ...m.trail.tail];
  const member = (id: string | null) => {
    if (!id) return '-';
    const role = roleIn(trailEntries, id);
    return role ? `${id} (${role})` : id;
  };
  w.heading('1. The subject', 2);
  w.keyValues([
    ['Case', c.id],
    ['Chain', c.chain],
    [c.subjectKind === 'address' ? 'Address' : 'Transaction (txid)', c.subject],
    ['State', s.state],
    ['Severity', `${s.severity}${s.escalations > 0 ? ` (escalated ${s.escalations} time(s))` : ''}`],
    ['Sanctions finding', yesNo(s.sanctions)],
    ['Four eyes', `${yesNo(needsFourEyes(s))}${needsFourEyes(s) ? ": closes only on a second member's approval" : ''}`],
    ['Assignee', member(s.assigneeId)],
    [
      'Proposal',
      s.proposal
        ? `${s.proposal.disposition} by ${member(s.proposal.memberId)}${s.proposal.note ? `: ${s.proposal.note}` : ''}`
        : '-',
    ],
    ['Disposition', s.disposition ?? 'none yet'],
    ['Decided by', member(s.decidedBy)],
    [
      'SAR ready',
      `${yesNo(c.sarReady)}${c.sarReady ? ': closed as a true positive, ready for a suspicious-activity report' : ''}`,
    ],
    ['Opened', iso(c.openedAt)],
    ['Last changed', iso(c.updatedAt)],
    ['Closed', iso(c.closedAt)],
    ['Jobs', `${s.jobs.length} attached; ${m.jobs.length} read for this file`],
    ['Audit trail', `${thousands(c.trailLength)} entries; the last one's hash: ${c.trailHead ?? '-'}`],
  ]);
}

function cover(w: PdfWriter, m: CaseFileMaterial): void {
  w.heading('Case file', 1);
  w.paragraph(`Case ${m.record.id}: ${m.record.chain} ${m.record.subjectKind} ${m.record.subject}`, {
    bold: true,
    size: 10,
  });
  w.paragraph(
    `Made ${m.generatedAt.toISOString()} by chainscreen for account ${m.accountId}. Sections: 1 the subject, ` +
      '2 the findings with their sources and list versions, 3 the graph, 4 the alerts, 5 the signed answers, 6 the ' +
      'audit trail, 7 how to verify all of it without our software. Every time is UTC (ISO 8601).',
    { muted: true },
  );
  const cuts = [
    m.jobsNotRead.length > 0 ? `${m.jobsNotRead.length} job(s) not read (at most ${CASE_FILE_LIMITS.jobs})` : null,
    m.trail.tail.length > 0
      ? `trail entries printed: the first and last ${thousands(CASE_FILE_LIMITS.trailEntries / 2)} ` +
        `of ${thousands(m.trail.total)}`
      : null,
  ].filter(Boolean);
  if (cuts.length > 0)
    w.paragraph(`This file is bounded: ${cuts.join('; ')}. Each cut is said where it is made.`, { bold: true });
  w.space(4);
}

/** The case file as PDF bytes: pdfkit text and vector drawing only, standard fonts, no image or script. */
export async function renderCaseFile(m: CaseFileMaterial): Promise<Buffer> {
  const doc = new PDFDocument({
    ...PAGE,
    bufferPages: true,
    info: {
      Title: `Case file ${m.record.id}`,
      Author: 'chainscreen',
      Subject: `${m.record.chain} ${m.record.subject}`,
      CreationDate: m.generatedAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const w = new PdfWriter(doc, PAGE);
  cover(w, m);
  subjectSection(w, m);
  findingsSection(w, m);
  graphSection(w, m);
  alertsSection(w, m);
  signedAnswersSection(w, m);
  await trailSection(w, m);
  verificationSection(w, m);
  w.footer(`Case file ${m.record.id}`);
  doc.end();
  return done;
}
