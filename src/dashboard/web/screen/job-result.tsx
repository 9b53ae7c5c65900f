import { ErrorNotice } from '../components/error-notice';
import type { PoliciesState } from '../policies/use-policies';
import { ClusterPanel } from './cluster-panel';
import { CrawlGraph } from './crawl-graph';
import { clusterColours } from './graph-style';
import { HitsList } from './hits-list';
import type { CrawlReport, FullResponse } from './job-types';
import { PolicyScores } from './policy-scores';
import { RescoreControl } from './rescore-control';
import { RiskLevel } from './risk-level';
import { RuleScores } from './rule-scores';
import { chainName, STATUS_WORDS } from './screen-words';
import type { Submission } from './submission';

function StatusLine({ job }: { job: Submission }) {
  const failure = job.status === 'failed' && job.outcome?.status === 'failed' && job.outcome.error;
  return (
    <p class={`job-status job-status-${job.status}`} role="status" aria-live="polite" data-testid="job-status">
      {STATUS_WORDS[job.status]}
      {failure && `: ${failure.message}${/[.!?]$/.test(failure.message) ? '' : '.'} Nothing was charged.`}
    </p>
  );
}

function crawlWords(crawl: CrawlReport | undefined): string {
  if (!crawl?.ran)
    return (
      crawl?.note ?? 'No exposure crawl ran: this chain has no node configured here, so only the lists were checked.'
    );
  const extent =
    `${crawl.nodes_visited} address${crawl.nodes_visited === 1 ? '' : 'es'} visited, ` +
    `${crawl.depth_reached} of ${crawl.depth_planned} levels reached`;
  return crawl.complete
    ? `Exposure crawl complete: ${extent}.`
    : `Exposure crawl cut short (${crawl.truncated.join(', ')}): ${extent}. ` +
        `Counterparties not explored are unknown, not clean.`;
}

const NO_CLUSTERS: NonNullable<FullResponse['clusters']> = [];

function Result({ response, creditsCharged }: { response: FullResponse; creditsCharged: number | undefined }) {
  const drawn = response.graph && response.graph.nodes.length > 0;
  const clusters = response.clusters ?? NO_CLUSTERS;
  // The screened address: a KYA's target, a KYT's beneficiary (the engine's subject).
  const address = response.target_summary.address;
  return (
    <>
      {response.policy && (
        <PolicyScores
          policy={response.policy}
          level={response.risk_level}
          score={response.risk_score}
          standard={response.standard}
        />
      )}
      <div class="risk-summary" data-testid="risk-summary">
        <p>
          Risk level <RiskLevel level={response.risk_level} />
        </p>
        <p>
          Score <strong>{response.risk_score}</strong> <span class="hint">of 100</span>
        </p>
        <p>
          Charged <strong>{creditsCharged ?? 0}</strong> credit{creditsCharged === 1 ? '' : 's'}
        </p>
      </div>
      <p class="risk-reason" data-testid="risk-reason">
        {response.risk_reason}
      </p>
      <h3>Rule scores</h3>
      <RuleScores scores={response.rule_scores} />
      <h3>Findings</h3>
      <HitsList hits={response.hits ?? []} />
      <h3>Transfers around the target</h3>
      <p class="hint">{crawlWords(response.crawl)}</p>
      <div class={`graph-and-cluster${drawn ? '' : ' graph-and-cluster-single'}`}>
        {drawn && <CrawlGraph nodes={response.graph.nodes} edges={response.graph.edges} clusters={clusters} />}
        {address && <ClusterPanel chain={response.chain} address={address} colours={clusterColours(clusters)} />}
      </div>
    </>
  );
}

/** One submission: its live status, then the full result or the failure in words. */
export function JobResult({ job, policies }: { job: Submission; policies: PoliciesState }) {
  const finished = job.status !== 'queued';
  return (
    <section aria-labelledby="job-result-title" class="job-result">
      <h2 id="job-result-title">
        {job.apiType === 'KYA' ? 'Address' : 'Transaction'} on {chainName(job.chain)}
      </h2>
      <p class="mono job-target">{job.target}</p>
      <p class="hint">
        Request <span class="mono">{job.requestId}</span>
        {job.referenceId && (
          <>
            {' '}
            · reference <span class="mono">{job.referenceId}</span>
          </>
        )}
      </p>
      <StatusLine job={job} />
      <ErrorNotice error={job.outcomeError} />
      {finished && !job.outcome && !job.outcomeError && <p role="status">Loading the full result…</p>}
      {job.status === 'completed' && job.outcome?.status === 'completed' && job.outcome.response && (
        <Result response={job.outcome.response} creditsCharged={job.outcome.credits_charged} />
      )}
      {job.status === 'completed' && job.outcome?.status === 'completed' && (
        <RescoreControl requestId={job.requestId} policies={policies} />
      )}
    </section>
  );
}
