import { useRef, useState } from 'preact/hooks';
import { ApiError } from '../api-client';
import { ErrorNotice } from '../components/error-notice';
import { FieldError } from '../components/field-error';
import { useSession } from '../context';
import { newRequestKey } from '../credits/new-request-key';
import { hrefFor } from '../hash-route';
import { ACCOUNT_DEFAULT, PolicySelect } from '../policies/policy-select';
import type { PoliciesState } from '../policies/use-policies';
import { jobPriceWords } from '../screen/job-price-words';
import { useScreeningPricing } from '../screen/use-screening-pricing';
import { BATCH_PATH } from './batch-api';
import type { BatchView } from './batch-types';
import { plural } from './batch-words';
import { MAX_BATCH_ITEMS, type TargetFile, targetsFromCsv } from './csv-targets';

const EXAMPLE = 'address,chain,reference_id\n0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c,ethereum,case-1';

/**
 * "Screen a list": a CSV file of targets read in the page (a bad file is refused here, in words), a policy, and one
 * POST of the whole list. One Idempotency-Key per upload, kept across repeated submits of the same file and policy (a
 * double click, a retry after a lost answer), so the API makes one batch; a new file or policy gets a new key.
 */
export function BatchUploadForm({
  policies,
  onSubmitted,
}: {
  policies: PoliciesState;
  onSubmitted: (batch: BatchView, lines: number[]) => void;
}) {
  const { api } = useSession();
  const [file, setFile] = useState<{ name: string; targets: TargetFile } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [policyId, setPolicyId] = useState(ACCOUNT_DEFAULT);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const requestKey = useRef<string | null>(null);
  const inFlight = useRef(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const pricing = useScreeningPricing();

  const choose = async (event: Event) => {
    const chosen = (event.target as HTMLInputElement).files?.[0];
    requestKey.current = null;
    setError(null);
    setFile(null);
    setProblem(null);
    if (!chosen) return;
    const read = targetsFromCsv(await chosen.text(), chosen.size);
    if (read.ok) setFile({ name: chosen.name, targets: read.file });
    else setProblem(read.problem);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (inFlight.current) return;
    if (!file) {
      if (!problem) setProblem('Choose a CSV file of targets first.');
      return;
    }
    inFlight.current = true;
    requestKey.current ??= newRequestKey();
    setBusy(true);
    setError(null);
    try {
      const body = await api.post<{ data: BatchView }>(
        BATCH_PATH,
        { items: file.targets.items, ...(policyId === ACCOUNT_DEFAULT ? {} : { policy_id: policyId }) },
        { 'Idempotency-Key': requestKey.current },
      );
      onSubmitted(body.data, file.targets.lines);
      requestKey.current = null;
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
    } catch (err) {
      setError(err);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  const count = file?.targets.items.length ?? 0;
  return (
    <form onSubmit={submit} aria-labelledby="batch-upload-title" noValidate>
      <label for="batch-file">CSV file of targets</label>
      <input
        id="batch-file"
        ref={fileInput}
        type="file"
        accept=".csv,text/csv,text/plain"
        aria-invalid={problem ? 'true' : undefined}
        aria-describedby={problem ? 'batch-file-hint batch-file-error' : 'batch-file-hint'}
        onChange={choose}
      />
      <div id="batch-file-hint" class="hint">
        A header row, then one target per row, at most {MAX_BATCH_ITEMS.toLocaleString('en-US')}: columns{' '}
        <span class="mono">address</span> or <span class="mono">txid</span>, <span class="mono">chain</span> and
        optionally <span class="mono">reference_id</span>. For example:
        <pre>{EXAMPLE}</pre>
      </div>
      <FieldError id="batch-file-error" text={problem ?? undefined} />
      {file && (
        <p class="notice" role="status" data-testid="batch-file-summary">
          {plural(count, 'target')} read from {file.name}.
        </p>
      )}
      <div class="form-grid">
        <PolicySelect
          id="batch-policy"
          value={policyId}
          policies={policies}
          withDefault
          onChange={(id) => {
            setPolicyId(id);
            requestKey.current = null;
          }}
        />
      </div>
      <p class="hint">
        Each accepted target holds what a single job would ({jobPriceWords(pricing)}) and is charged when it completes.
        Rows the API finds invalid, and rows beyond what your credits cover, cost nothing.
      </p>
      <button type="submit" disabled={busy}>
        {busy ? 'Submitting…' : count ? `Screen ${plural(count, 'target')}` : 'Screen the list'}
      </button>
      <ErrorNotice error={error} />
      {error instanceof ApiError && error.status === 402 && (
        <p>
          <a href={hrefFor('credits')}>Go to Credits</a> to buy a package.
        </p>
      )}
    </form>
  );
}
