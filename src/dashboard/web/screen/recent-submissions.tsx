import { type Column, DataTable } from '../components/data-table';
import { RiskLevel } from './risk-level';
import { chainName, timeOf } from './screen-words';
import type { Submission } from './submission';

function StatusCell({ job }: { job: Submission }) {
  if (job.status === 'completed') {
    const level = job.outcome?.status === 'completed' ? job.outcome.response?.risk_level : undefined;
    return (
      <>
        completed{level && ' · '}
        {level && <RiskLevel level={level} />}
      </>
    );
  }
  return <>{job.status}</>;
}

const columnsFor = (selectedId: string | null, onSelect: (id: string) => void): Column<Submission>[] => [
  { header: 'Time', cell: (job) => timeOf(job.submittedAt) },
  {
    header: 'Target',
    cell: (job) => (
      <>
        <span class="mono">{job.target}</span>
        <div class="hint">
          {job.apiType} · {chainName(job.chain)}
        </div>
      </>
    ),
  },
  { header: 'Status', cell: (job) => <StatusCell job={job} />, testId: 'recent-status' },
  { header: 'Request id', cell: (job) => job.requestId, class: 'mono' },
  {
    header: 'Result',
    cell: (job) =>
      job.requestId === selectedId ? (
        <span class="hint">shown above</span>
      ) : (
        <button type="button" class="link" onClick={() => onSelect(job.requestId)}>
          Show result
        </button>
      ),
  },
];

/** This tab's latest submissions, their statuses kept live by the same socket events as the result. */
export function RecentSubmissions({
  jobs,
  selectedId,
  onSelect,
}: {
  jobs: Submission[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  return (
    <section aria-labelledby="recent-title">
      <h2 id="recent-title">Your recent submissions</h2>
      <DataTable
        class="wide-table"
        testId="recent-submissions"
        columns={columnsFor(selectedId, onSelect)}
        rows={jobs}
        rowKey={(job) => job.requestId}
        isSelected={(job) => job.requestId === selectedId}
        empty="Nothing submitted from this tab yet. Earlier screenings are under Activity."
      />
    </section>
  );
}
