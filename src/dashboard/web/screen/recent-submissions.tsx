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
      {jobs.length === 0 ? (
        <p class="hint">Nothing submitted from this tab yet. Earlier screenings are under Activity.</p>
      ) : (
        <div class="table-scroll">
          <table class="wide-table" data-testid="recent-submissions">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Target</th>
                <th scope="col">Status</th>
                <th scope="col">Request id</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((job) => (
                <tr key={job.requestId} aria-current={job.requestId === selectedId ? 'true' : undefined}>
                  <td>{timeOf(job.submittedAt)}</td>
                  <td>
                    <span class="mono">{job.target}</span>
                    <div class="hint">
                      {job.apiType} · {chainName(job.chain)}
                    </div>
                  </td>
                  <td data-testid="recent-status">
                    <StatusCell job={job} />
                  </td>
                  <td class="mono">{job.requestId}</td>
                  <td>
                    {job.requestId === selectedId ? (
                      <span class="hint">shown above</span>
                    ) : (
                      <button type="button" class="link" onClick={() => onSelect(job.requestId)}>
                        Show result
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
