import { z } from 'zod';
import { CASE_SEVERITIES, CASE_STATES, DISPOSITIONS, needsFourEyes } from './domain/case-model';
import type { CaseAlertRecord, CaseRecord } from './case-queries';
import type { TrailEntry } from './trail/trail-entry';

export const caseSchema = z.object({
  id: z.uuid(),
  chain: z.string(),
  subject_kind: z.enum(['address', 'transaction']),
  subject: z.string().describe('The address or transaction id the case is about (one case per subject and account)'),
  state: z.enum(CASE_STATES),
  severity: z.enum(CASE_SEVERITIES),
  sanctions: z.boolean().describe('A sanctions finding opened or joined it'),
  four_eyes: z.boolean().describe('It closes only when an approver other than the proposer approves'),
  assignee_id: z.uuid().nullable(),
  proposal: z
    .object({ disposition: z.enum(DISPOSITIONS), note: z.string().nullable(), proposed_by: z.uuid() })
    .nullable(),
  disposition: z.enum(DISPOSITIONS).nullable(),
  decided_by: z.uuid().nullable(),
  escalations: z.int(),
  jobs: z.array(z.string()).describe('Request ids of the jobs attached to it'),
  sar_ready: z.boolean().describe('Closed as a true positive: the case file is ready for a suspicious-activity report'),
  trail_length: z.int(),
  trail_head: z.string().nullable().describe('The hash of its last trail entry'),
  opened_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  closed_at: z.iso.datetime().nullable(),
});

const trailEntrySchema = z
  .object({
    request_id: z.string().describe('`case:<case id>:<seq>`, bound in the signature like an answer’s request id'),
    case_id: z.uuid(),
    seq: z.int().min(1),
    at: z.iso.datetime(),
    actor: z.object({
      kind: z.enum(['member', 'system']),
      member_id: z.string().optional(),
      role: z.string().optional(),
    }),
    action: z.string(),
    detail: z.record(z.string(), z.unknown()),
    before: z.record(z.string(), z.unknown()).nullable(),
    after: z.record(z.string(), z.unknown()),
    prev_hash: z.string(),
    hash: z.string().describe('SHA-256 of the entry’s RFC 8785 canonical JSON without hash and signature'),
    signature: z.record(z.string(), z.unknown()).describe('Detached EdDSA JWS over the entry without `signature`'),
  })
  .passthrough();

const alertSchema = z.object({
  source: z.string(),
  request_id: z.string().nullable(),
  fingerprint: z.string(),
  severity: z.enum(CASE_SEVERITIES),
  sanctions: z.boolean(),
  suppressed: z.boolean().describe('A closed case’s suppression matched: recorded, nothing opened'),
  findings: z.array(z.string()),
  at: z.iso.datetime(),
});

export const caseDetailSchema = caseSchema.extend({ trail: z.array(trailEntrySchema), alerts: z.array(alertSchema) });
export const caseResponse = z.object({ success: z.literal(true), data: caseSchema });
export const caseDetailResponse = z.object({ success: z.literal(true), data: caseDetailSchema });
export const caseListResponse = z.object({
  success: z.literal(true),
  data: z.array(caseSchema),
  pagination: z.object({ total: z.int(), limit: z.int(), offset: z.int() }),
});

/** The account's SLA per severity, in seconds, as GET/PUT /api/v1/cases/sla answer it. */
export const caseSlaResponse = z.object({
  success: z.literal(true),
  data: z.object(
    Object.fromEntries(CASE_SEVERITIES.map((s) => [s, z.object({ assign_within: z.int(), decide_within: z.int() })])),
  ),
});

export function caseView(c: CaseRecord): z.input<typeof caseSchema> {
  const s = c.snapshot;
  return {
    id: c.id,
    chain: c.chain,
    subject_kind: c.subjectKind,
    subject: c.subject,
    state: s.state,
    severity: s.severity,
    sanctions: s.sanctions,
    four_eyes: needsFourEyes(s),
    assignee_id: s.assigneeId,
    proposal: s.proposal
      ? { disposition: s.proposal.disposition, note: s.proposal.note, proposed_by: s.proposal.memberId }
      : null,
    disposition: s.disposition,
    decided_by: s.decidedBy,
    escalations: s.escalations,
    jobs: s.jobs,
    sar_ready: c.sarReady,
    trail_length: c.trailLength,
    trail_head: c.trailHead,
    opened_at: c.openedAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
    closed_at: c.closedAt?.toISOString() ?? null,
  };
}

export function caseDetailView(c: CaseRecord, trail: TrailEntry[], alerts: CaseAlertRecord[]) {
  return {
    ...caseView(c),
    trail,
    alerts: alerts.map((a) => ({
      source: a.source,
      request_id: a.requestId,
      fingerprint: a.fingerprint,
      severity: a.severity,
      sanctions: a.sanctions,
      suppressed: a.suppressed,
      findings: a.findings,
      at: a.createdAt.toISOString(),
    })),
  };
}
