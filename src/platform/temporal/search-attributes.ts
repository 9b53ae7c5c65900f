import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Keyword attributes operators filter on in the Temporal UI, e.g. `JobStatus="failed" AND Chain="ethereum"`. */
export const UserIdAttr = defineSearchAttributeKey('UserId', SearchAttributeType.KEYWORD);
export const ApiTypeAttr = defineSearchAttributeKey('ApiType', SearchAttributeType.KEYWORD);
export const ChainAttr = defineSearchAttributeKey('Chain', SearchAttributeType.KEYWORD);
export const RiskLevelAttr = defineSearchAttributeKey('RiskLevel', SearchAttributeType.KEYWORD);
export const JobStatusAttr = defineSearchAttributeKey('JobStatus', SearchAttributeType.KEYWORD);
export const ProviderAttr = defineSearchAttributeKey('Provider', SearchAttributeType.KEYWORD);
export const EventTypeAttr = defineSearchAttributeKey('EventType', SearchAttributeType.KEYWORD);
/** A case's state and severity (src/cases), beside UserId (its account): `CaseState="open" AND CaseSeverity="high"`. */
export const CaseStateAttr = defineSearchAttributeKey('CaseState', SearchAttributeType.KEYWORD);
export const CaseSeverityAttr = defineSearchAttributeKey('CaseSeverity', SearchAttributeType.KEYWORD);

/**
 * Registered on the dev server at start (`--search-attribute Name=Keyword`), and by deploy/temporal-namespace.sh on
 * docker-compose's and the production shape's Temporal server (test/unit/docker-compose.test.ts keeps its list equal).
 */
export const ALL_SEARCH_ATTRIBUTES = [
  UserIdAttr,
  ApiTypeAttr,
  ChainAttr,
  RiskLevelAttr,
  JobStatusAttr,
  ProviderAttr,
  EventTypeAttr,
  CaseStateAttr,
  CaseSeverityAttr,
];
