import { randomUUID } from 'node:crypto';
import type { HistoryEntry, HistoryRiskLevel, HistoryEntryType } from './history-store';
import { isUuid } from '../platform/http/common-patterns';

/** A body the contract refuses: `{error}` as spec 4.5 words it, plus the field when the message names one. */
export class HistoryEntryError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'HistoryEntryError';
  }
}

const HISTORY_ENTRY_TYPES: readonly HistoryEntryType[] = ['kyt', 'kya', 'kye'];
const RISK_LEVELS: readonly HistoryRiskLevel[] = ['low', 'medium', 'high', 'critical'];
/** Which identifier each engine's entry must carry (spec 2.7). */
const REQUIRED_BY_TYPE: Record<HistoryEntryType, readonly string[]> = {
  kyt: ['blockchain', 'transactionHash'],
  kya: ['blockchain', 'address'],
  kye: ['entityId'],
};
const MAX_TEXT = 512;

type Body = Record<string, unknown>;

const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

function optionalText(body: Body, field: string): string | null {
  const v = body[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw new HistoryEntryError(`${field} must be a string or null`, field);
  const trimmed = v.trim();
  if (trimmed.length > MAX_TEXT) throw new HistoryEntryError(`${field} must be at most ${MAX_TEXT} characters`, field);
  return trimmed === '' ? null : trimmed;
}

function optionalUuid(body: Body, field: string): string | null {
  const v = optionalText(body, field);
  if (v !== null && !isUuid(v)) throw new HistoryEntryError(`${field} must be a UUID`, field);
  return v?.toLowerCase() ?? null;
}

function optionalObject(body: Body, field: string): Body | null {
  const v = body[field];
  if (v === undefined || v === null) return null;
  if (!isObject(v)) throw new HistoryEntryError(`${field} must be a JSON object or null`, field);
  return v;
}

function statusCodeOf(body: Body): number {
  const v = body.statusCode;
  if (v === undefined || v === null) return 200;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 100 || v > 599)
    throw new HistoryEntryError('statusCode must be an integer HTTP status (100-599)', 'statusCode');
  return v;
}

function riskScoreOf(body: Body): number | null {
  const v = body.riskScore;
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 100)
    throw new HistoryEntryError('riskScore must be a number from 0 to 100', 'riskScore');
  return v;
}

function riskLevelOf(body: Body): HistoryRiskLevel | null {
  const v = optionalText(body, 'riskLevel')?.toLowerCase() ?? null;
  if (v !== null && !(RISK_LEVELS as readonly string[]).includes(v))
    throw new HistoryEntryError('riskLevel must be one of: low, medium, high, critical', 'riskLevel');
  return v as HistoryRiskLevel | null;
}

/**
 * Validates a history entry (spec 2.7) in the order the contract's errors imply: activityType,
 * then userId, then the fields the type requires, then every format. Defaults: a fresh requestId,
 * statusCode 200, and an errorMessage for statusCode >= 400 when none was sent.
 */
export function parseHistoryEntry(body: unknown): HistoryEntry {
  if (!isObject(body)) throw new HistoryEntryError('The body must be a JSON object');
  const activityType = typeof body.activityType === 'string' ? body.activityType.trim().toLowerCase() : '';
  if (!(HISTORY_ENTRY_TYPES as readonly string[]).includes(activityType))
    throw new HistoryEntryError('Invalid activityType. Must be one of: kyt, kya, kye', 'activityType');
  const userRef = typeof body.userId === 'string' ? body.userId.trim() : '';
  if (!userRef) throw new HistoryEntryError('userId is required', 'userId');
  if (userRef.length > 128) throw new HistoryEntryError('userId must be at most 128 characters', 'userId');

  const type = activityType as HistoryEntryType;
  const text = Object.fromEntries(
    [
      'blockchain',
      'transactionHash',
      'address',
      'entityId',
      'entityName',
      'errorMessage',
      'clientAppId',
      'clientAppName',
    ].map((f) => [f, optionalText(body, f)]),
  );
  for (const field of REQUIRED_BY_TYPE[type]) {
    if (!text[field]) throw new HistoryEntryError(`${field} is required when activityType is ${type}`, field);
  }
  const statusCode = statusCodeOf(body);
  const requestId = optionalUuid(body, 'requestId') ?? randomUUID();
  return {
    userRef,
    idempotencyKey: `webhook:${userRef}:${requestId}`,
    activityType: type,
    requestId,
    responseId: optionalUuid(body, 'responseId'),
    statusCode,
    blockchain: text.blockchain?.toLowerCase() ?? null,
    transactionHash: text.transactionHash ?? null,
    address: text.address ?? null,
    entityId: text.entityId ?? null,
    entityName: text.entityName ?? null,
    riskLevel: riskLevelOf(body),
    riskScore: riskScoreOf(body),
    requestPayload: optionalObject(body, 'requestPayload'),
    responsePayload: optionalObject(body, 'responsePayload'),
    responseSummary: optionalObject(body, 'responseSummary'),
    errorMessage: text.errorMessage ?? (statusCode >= 400 ? `Request failed with status ${statusCode}` : null),
    metadata: optionalObject(body, 'metadata') ?? {},
    clientAppId: text.clientAppId ?? null,
    clientAppName: text.clientAppName ?? null,
    source: 'webhook',
  };
}
