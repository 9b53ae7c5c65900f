import { useState } from 'preact/hooks';
import { JobResult } from '../screen/job-result';
import { RecentSubmissions } from '../screen/recent-submissions';
import { ScreenForm } from '../screen/screen-form';
import { useScreeningJobs, type ScreeningInput } from '../screen/use-screening-jobs';
import type { PanelProps } from './panel-props';

/** Screen an address (KYA) or a transaction (KYT) and follow the job live until its result is in. */
export function ScreenPanel(_props: PanelProps) {
  const { jobs, submit } = useScreeningJobs();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = jobs.find((j) => j.requestId === selectedId) ?? null;

  const screen = async (input: ScreeningInput) => setSelectedId(await submit(input));

  return (
    <>
      <section aria-labelledby="screen-title">
        <h1 id="screen-title">Screen an address or transaction</h1>
        <ScreenForm onSubmit={screen} />
      </section>
      {selected && <JobResult key={selected.requestId} job={selected} />}
      <RecentSubmissions jobs={jobs} selectedId={selectedId} onSelect={setSelectedId} />
    </>
  );
}
