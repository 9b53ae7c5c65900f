import type { ApiType, RiskLevel } from '../workflow-types';
import type { RiskModelDocument } from './risk-model-schema';

export interface RuleScores {
  tag_score: number;
  is_sanctioned: number;
  is_blacklisted: number;
  receive_count: number;
  address_type: number;
  active_duration: number;
}

export interface Tag {
  name: string;
  type: string;
  display: string;
}

export interface Balance {
  asset: string;
  amount: number;
  usd: number;
}

/** The `response` object of a completed job (spec 2.4). */
export interface ScreeningResponse {
  api_type: ApiType;
  chain: string;
  risk_level: RiskLevel;
  risk_score: number;
  response_id: string;
  risk_reason: string;
  rule_scores: RuleScores;
  target_summary: { address: string; tags: Tag[]; balances: Balance[] };
  /** The sanctions list version the answer was screened against (absent on answers stored before versions). */
  sanctions_list?: { list: string; version: number; issue_date: string };
  /** Present when a customer policy scored the answer: which version, and the standard score beside it. */
  policy?: import('./policy-verdict').PolicyVerdict['policy'];
  standard?: import('./policy-verdict').PolicyVerdict['standard'];
}

/** One fact that moved a rule, with enough detail to re-derive the score by hand. */
export interface Hit {
  rule: keyof RuleScores;
  score: number;
  address: string;
  role: string;
  hop: number;
  category: string;
  source: string | null;
  detail: string;
  /** Indirect exposure only: the path from the screened party (first) to this address (last). */
  path?: string[];
  direction?: 'in' | 'out';
  usd?: number;
  /** Share of the screened party's flow in that direction that reached this address (0-1). */
  share?: number;
  /** A hit of the account's own list (source `custom`): the label's id and name. */
  label_id?: string;
  label_name?: string | null;
  /** A finding on another address of the same wallet cluster: the cluster and the merges that joined them. */
  via_cluster?: import('./reference-data').ViaCluster;
}

export interface CrawlReport {
  ran: boolean;
  /** Why the crawl did not run or stopped early; null when it completed. */
  note: string | null;
  complete: boolean;
  depth_planned: number;
  depth_reached: number;
  nodes_visited: number;
  truncated: string[];
  /** The bounds the exposure crawl ran under (hops, fan-out, budgets), when it ran. */
  limits?: import('./crawl-limits').CrawlLimits;
  /** Where the crawl read addresses' transfers (e.g. otterscan, etherscan, logs) and what that source misses. */
  source?: import('../chains/chain-client').TransferSourceReport;
}

/** The complete payload served by /fullresponse: the response plus how it was reached. */
export interface FullResponse extends ScreeningResponse {
  hits: Hit[];
  crawl: CrawlReport;
  graph: {
    nodes: { address: string; role: string; hop: number; labels?: string[]; share?: number; stop?: string | null }[];
    edges: {
      from: string | null;
      to: string | null;
      asset: string;
      amount: string;
      txids?: string[];
      usd?: number | null;
      hop?: number;
    }[];
  };
  transaction: { hash: string; status: string; block_number: string | null; timestamp: string | null } | null;
  /** One entry per valued asset: the price used, when it was the market's (as_of), and the moment valued. */
  pricing: {
    asset: string;
    usd_price: number | null;
    as_of: string | null;
    source: string | null;
    valued_at: string;
  }[];
  /** What the job costs, from the crawl its analysis actually did (src/screening/pricing.ts). */
  cost: { credits: number; depth_reached: number; rule: string };
  unpriced_assets: string[];
  /** data/risk/risk-model.json as it scored this analysis. */
  model: RiskModelDocument;
  /** The customer policy's document, when one scored the answer (`policy` names its id and version). */
  policy_document?: import('./scoring-policy').PolicyDocument;
  /** What scoring read, so the answer can be scored again under another policy (POST /kyt/job/:id/rescore). */
  scoring_evidence?: import('./scoring-evidence').ScoringEvidence;
  /** Every list consulted, as it was: version (issue date), sha256 and load time. */
  lists?: import('./reference-data').ReferenceProvenance[];
  performance: {
    analysis_ms: number;
    chain_ms: number;
    lists_ms: number;
    crawl_ms?: number;
    /** Chain-client calls the crawl made, against its budget. */
    crawl_requests?: number;
    request_budget?: number;
    nodes_visited?: number;
    cut_short?: boolean;
    /** Chain cache (Postgres) answers for this job: finished transactions and fresh address pages. */
    cache_hits?: number;
    cache_misses?: number;
    /** Chain calls spent growing wallet clusters. */
    cluster_calls?: number;
  };
  /** The wallet clusters (size > 1) of the screened parties and the crawled addresses. */
  clusters?: { address: string; cluster_id: string; size: number; partial: boolean }[];
}

export interface AnalysisResult {
  response: ScreeningResponse;
  full: FullResponse;
  depthReached: number;
}
