import { isUuid } from '../../platform/http/common-patterns';
import type { JobStore } from '../../screening';
import type { CaseAlertRecord, CaseQueries, CaseRecord } from '../case-queries';
import { CASE_FILE_LIMITS } from './case-file-limits';
import type { JobAnswerSigner, JobSignatures } from './signed-answers';
import type { TrailWindow, TrailWindowReader } from './trail-window';

/** A finding of a stored full answer, as printed (fields the answer lacks are null). */
export interface CaseFileHit {
  rule: string;
  score: number | null;
  category: string;
  address: string;
  role: string;
  hop: number | null;
  source: string | null;
  detail: string;
}

/** A list the answer was screened against, as it was then (`fullResponse.lists`). */
export interface CaseFileList {
  list: string;
  version: number | null;
  issueDate: string | null;
  sha256: string;
  loadedAt: string;
  source: string;
}

export interface CaseFileGraph {
  nodes: { address: string; role: string; hop: number; labels: string[]; share: number | null }[];
  edges: { from: string | null; to: string | null; asset: string; amount: string; usd: number | null }[];
}

/** One job of the case, read from its stored answer. */
export interface CaseFileJob {
  requestId: string;
  apiType: string;
  chain: string;
  target: string;
  referenceId: string | null;
  status: 'queued' | 'completed' | 'failed';
  createdAt: Date;
  completedAt: Date | null;
  riskLevel: string | null;
  riskScore: number | null;
  riskReason: string | null;
  errorCode: string | null;
  /** `response.sanctions_list`: the sanctions list version the answer was screened against. */
  sanctionsList: { list: string; version: number; issueDate: string } | null;
  lists: CaseFileList[];
  /** At most CASE_FILE_LIMITS.hitsPerJob; `hitCount` is how many the answer holds. */
  hits: CaseFileHit[];
  hitCount: number;
  graph: CaseFileGraph | null;
  /** How the crawl behind the graph went (`fullResponse.crawl`). */
  crawl: {
    ran: boolean;
    note: string | null;
    complete: boolean;
    depthPlanned: number;
    depthReached: number;
    nodesVisited: number;
  } | null;
  signatures: JobSignatures | null;
}

export interface CaseFileMaterial {
  record: CaseRecord;
  accountId: string;
  generatedAt: Date;
  trail: TrailWindow;
  alerts: CaseAlertRecord[];
  /** Oldest first. */
  jobs: CaseFileJob[];
  /** Request ids of the case not read (past CASE_FILE_LIMITS.jobs). */
  jobsNotRead: string[];
  /** Request ids the case names that the account has no job for. */
  jobsMissing: string[];
}

export interface CaseFileSources {
  caseQueries: Pick<CaseQueries, 'alerts'>;
  jobs: Pick<JobStore, 'findForUser'>;
  trailWindow: TrailWindowReader;
  signAnswers: JobAnswerSigner;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const objects = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

/**
 * The jobs a case file reads: the alerts' jobs and the attached ones (the case's snapshot), newest first, each
 * once, and at most `limit` of them; the rest are named as not read.
 */
export function jobsOfCase(record: CaseRecord, alerts: CaseAlertRecord[], limit: number) {
  const ids: string[] = [];
  const seen = new Set<string>();
  const add = (id: string | null) => {
    if (id && !seen.has(id)) {
      seen.add(id);
      ids.push(id);
    }
  };
  for (const a of alerts) add(a.requestId);
  for (const id of [...record.snapshot.jobs].reverse()) add(id);
  return { read: ids.slice(0, limit), notRead: ids.slice(limit) };
}

function sanctionsListOf(response: Json | null): CaseFileJob['sanctionsList'] {
  const s = response?.sanctions_list;
  if (!isObject(s)) return null;
  const list = str(s.list);
  const version = num(s.version);
  const issueDate = str(s.issue_date);
  return list && version !== null && issueDate ? { list, version, issueDate } : null;
}

function listsOf(full: Json | null): CaseFileList[] {
  return objects(full?.lists).map((l) => ({
    list: str(l.list) ?? '?',
    version: num(l.version),
    issueDate: str(l.issue_date),
    sha256: str(l.sha256) ?? '',
    loadedAt: str(l.loaded_at) ?? '',
    source: str(l.source) ?? '',
  }));
}

function hitOf(h: Json): CaseFileHit {
  return {
    rule: str(h.rule) ?? '?',
    score: num(h.score),
    category: str(h.category) ?? '',
    address: str(h.address) ?? '',
    role: str(h.role) ?? '',
    hop: num(h.hop),
    source: str(h.source),
    detail: str(h.detail) ?? '',
  };
}

function graphOf(full: Json | null): CaseFileGraph | null {
  const g = full?.graph;
  if (!isObject(g)) return null;
  const nodes = objects(g.nodes)
    .filter((n) => typeof n.address === 'string')
    .map((n) => ({
      address: n.address as string,
      role: str(n.role) ?? '',
      hop: num(n.hop) ?? 0,
      labels: Array.isArray(n.labels) ? [...new Set(n.labels.filter((l): l is string => typeof l === 'string'))] : [],
      share: num(n.share),
    }));
  const edges = objects(g.edges).map((e) => ({
    from: str(e.from),
    to: str(e.to),
    asset: str(e.asset) ?? '',
    amount: str(e.amount) ?? String(e.amount ?? ''),
    usd: num(e.usd),
  }));
  return nodes.length > 0 ? { nodes, edges } : null;
}

function crawlOf(full: Json | null): CaseFileJob['crawl'] {
  const c = full?.crawl;
  if (!isObject(c)) return null;
  return {
    ran: c.ran === true,
    note: str(c.note),
    complete: c.complete === true,
    depthPlanned: num(c.depth_planned) ?? 0,
    depthReached: num(c.depth_reached) ?? 0,
    nodesVisited: num(c.nodes_visited) ?? 0,
  };
}

async function readJob(sources: CaseFileSources, requestId: string, accountId: string): Promise<CaseFileJob | null> {
  const job = await sources.jobs.findForUser(requestId, accountId);
  if (!job) return null;
  const response = job.response;
  const full = job.fullResponse;
  const allHits = objects(full?.hits);
  return {
    requestId: job.requestId,
    apiType: job.apiType,
    chain: job.chain,
    target: job.target,
    referenceId: job.referenceId,
    status: job.status,
    createdAt: job.createdAt,
    completedAt: job.completedAt,
    riskLevel: str(response?.risk_level),
    riskScore: num(response?.risk_score),
    riskReason: str(response?.risk_reason),
    errorCode: job.error?.code ?? null,
    sanctionsList: sanctionsListOf(response),
    lists: listsOf(full),
    hits: allHits.slice(0, CASE_FILE_LIMITS.hitsPerJob).map(hitOf),
    hitCount: allHits.length,
    graph: graphOf(full),
    crawl: crawlOf(full),
    signatures: await sources.signAnswers(job),
  };
}

/** Runs `work` over `items`, at most `atOnce` at a time, keeping their order. */
async function inTurns<T, R>(items: readonly T[], atOnce: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await work(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, lane));
  return out;
}

/**
 * Everything a case file prints, read within CASE_FILE_LIMITS: the alerts, at most 50 jobs (each one query on its
 * primary key, four at a time, its full answer reduced at once to what is printed, its answers signed as the poll
 * signs them), and a window of the trail. `record` is the case as the route found it for the account.
 */
export async function gatherCaseFile(
  sources: CaseFileSources,
  record: CaseRecord,
  accountId: string,
  now: () => Date = () => new Date(),
): Promise<CaseFileMaterial> {
  const [alerts, trail] = await Promise.all([
    sources.caseQueries.alerts(record.id, CASE_FILE_LIMITS.alerts),
    sources.trailWindow(record.id, record.trailLength, CASE_FILE_LIMITS.trailEntries),
  ]);
  const { read, notRead } = jobsOfCase(record, alerts, CASE_FILE_LIMITS.jobs);
  const valid = read.filter(isUuid);
  const found = await inTurns(valid, CASE_FILE_LIMITS.jobReadsAtOnce, (id) => readJob(sources, id, accountId));
  const jobs = found.filter((j): j is CaseFileJob => j !== null);
  jobs.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.requestId.localeCompare(b.requestId));
  const readIds = new Set(jobs.map((j) => j.requestId));
  return {
    record,
    accountId,
    generatedAt: now(),
    trail,
    alerts,
    jobs,
    jobsNotRead: notRead,
    jobsMissing: read.filter((id) => !readIds.has(id)),
  };
}
