import { type CaseActionName, DISPOSITIONS, MAX_NOTE_LENGTH } from './case-model';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ROLES = new Set(['admin', 'analyst', 'approver']);
const isNote = (v: unknown) => v === null || (typeof v === 'string' && v.length <= MAX_NOTE_LENGTH);

/**
 * What is wrong with an update's argument, or null: the workflow's validators refuse a malformed request (one sent
 * through the Temporal frontend by hand, say) before it reaches the rule book. The routes validate with zod first.
 */
export function validActionRequest(name: CaseActionName, request: unknown): string | null {
  const r = request as { memberId?: unknown; role?: unknown; action?: Record<string, unknown> } | null;
  if (!r || typeof r !== 'object') return 'the request is not an object';
  if (typeof r.memberId !== 'string' || !UUID.test(r.memberId)) return 'memberId is not a member id';
  if (typeof r.role !== 'string' || !ROLES.has(r.role)) return 'role is not a team role';
  const a = r.action;
  if (!a || typeof a !== 'object' || a.action !== name) return `the action is not ${name}`;
  switch (name) {
    case 'assign':
      return typeof a.assigneeId === 'string' && UUID.test(a.assigneeId) ? null : 'assigneeId is not a member id';
    case 'comment':
      return typeof a.text === 'string' ? null : 'text is not a string';
    case 'attach_job':
      return typeof a.requestId === 'string' && a.requestId.length <= 100 ? null : 'requestId is not a request id';
    case 'propose':
      if (!DISPOSITIONS.includes(a.disposition as never)) return 'disposition is not one of the dispositions';
      return isNote(a.note) ? null : 'note is too long';
    default:
      return isNote(a.note) ? null : 'note is too long';
  }
}
