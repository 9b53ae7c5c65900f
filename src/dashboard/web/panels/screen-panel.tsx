import { usePolicies } from '../policies/use-policies';
import { JobResult } from '../screen/job-result';
import { RecentSubmissions } from '../screen/recent-submissions';
import { ScreenForm } from '../screen/screen-form';
import { useScreeningJobs } from '../screen/use-screening-jobs';
import type { PanelProps } from './panel-props';

/** Screen an address (KYA) or a transaction (KYT) and follow the job live until its result is in. */
export function ScreenPanel(_props: PanelProps) {
  const { jobs, selected, submit, select } = useScreeningJobs();
  const policies = usePolicies();
  return (
    <>
      <section aria-labelledby="screen-title">
        <h1 id="screen-title">Screen an address or transaction</h1>
        <ScreenForm onSubmit={submit} policies={policies} />
      </section>
      {selected && <JobResult key={selected.requestId} job={selected} policies={policies} />}
      <RecentSubmissions jobs={jobs} selectedId={selected?.requestId ?? null} onSelect={select} />
    </>
  );
}
