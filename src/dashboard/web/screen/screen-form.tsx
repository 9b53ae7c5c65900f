import { useState } from 'preact/hooks';
import { ApiError } from '../api-client';
import { AddressField } from '../components/address-field';
import { ErrorNotice } from '../components/error-notice';
import { useFormSubmission } from '../components/use-form-submission';
import { hrefFor } from '../hash-route';
import { ACCOUNT_DEFAULT, PolicySelect } from '../policies/policy-select';
import type { PoliciesState } from '../policies/use-policies';
import type { ApiType } from './job-types';
import { jobPriceWords } from './job-price-words';
import { ChainSelect } from './chain-select';
import { chainName } from './screen-words';
import type { ScreeningInput } from './use-screening-jobs';
import { useScreeningPricing } from './use-screening-pricing';

/** A 400 about one of this form's fields, said with the field's own name. */
function fieldProblem(
  err: unknown,
  chain: string,
): { field: 'target' | 'referenceId' | 'crawlTimeout' | 'other'; text: string } | null {
  if (!(err instanceof ApiError) || !err.parameter) return null;
  const { parameter, expected } = err.parameter;
  if (parameter === 'address')
    return { field: 'target', text: `This is not a valid ${chainName(chain)} address. Expected ${expected}.` };
  if (parameter === 'txid')
    return { field: 'target', text: `This is not a valid ${chainName(chain)} transaction id. Expected ${expected}.` };
  if (parameter === 'crawlTimeout')
    return { field: 'crawlTimeout', text: `The crawl timeout is out of range. Expected ${expected}.` };
  if (parameter.startsWith('reference'))
    return { field: 'referenceId', text: `The reference id is not valid. Expected ${expected}.` };
  return null;
}

/** "Screen an address or transaction": validates what it can, then hands the request to `onSubmit`. */
export function ScreenForm({
  onSubmit,
  policies,
}: {
  onSubmit: (input: ScreeningInput) => Promise<unknown>;
  policies: PoliciesState;
}) {
  const [chain, setChain] = useState('ethereum');
  const [apiType, setApiType] = useState<ApiType>('KYA');
  const [target, setTarget] = useState('');
  const [referenceId, setReferenceId] = useState('');
  const [crawlTimeout, setCrawlTimeout] = useState('');
  const [policyId, setPolicyId] = useState(ACCOUNT_DEFAULT);
  const { error, missing, busy, changed, submitting } = useFormSubmission();
  const pricing = useScreeningPricing();

  const submit = submitting(target, (trimmed) =>
    onSubmit({
      apiType,
      chain,
      target: trimmed,
      referenceId: referenceId.trim() || undefined,
      crawlTimeoutMs: crawlTimeout.trim() ? Number(crawlTimeout) : undefined,
      policyId: policyId === ACCOUNT_DEFAULT ? undefined : policyId,
    }),
  );

  const problem = fieldProblem(error, chain);
  const targetLabel = apiType === 'KYA' ? 'Address' : 'Transaction id (hash)';
  const targetError = missing
    ? `Enter the ${apiType === 'KYA' ? 'address' : 'transaction id'} to screen.`
    : problem?.field === 'target'
      ? problem.text
      : undefined;

  return (
    <form onSubmit={submit} aria-labelledby="screen-title" noValidate>
      <div class="form-grid">
        <ChainSelect id="screen-chain" value={chain} onChange={changed(setChain)} />
        <fieldset class="choice">
          <legend>What to screen</legend>
          <label>
            <input
              type="radio"
              name="screen-type"
              checked={apiType === 'KYA'}
              onChange={() => changed(setApiType)('KYA')}
            />{' '}
            Address (KYA)
          </label>
          <label>
            <input
              type="radio"
              name="screen-type"
              checked={apiType === 'KYT'}
              onChange={() => changed(setApiType)('KYT')}
            />{' '}
            Transaction (KYT)
          </label>
        </fieldset>
      </div>
      <AddressField
        id="screen-target"
        label={targetLabel}
        value={target}
        error={targetError}
        onInput={changed(setTarget)}
      />
      <div class="form-grid">
        <div>
          <label for="screen-reference">Reference id (optional)</label>
          <input
            id="screen-reference"
            type="text"
            value={referenceId}
            onInput={(e) => changed(setReferenceId)((e.target as HTMLInputElement).value)}
          />
        </div>
        <div>
          <label for="screen-timeout">Crawl timeout in ms (optional)</label>
          <input
            id="screen-timeout"
            type="number"
            min={1000}
            step={500}
            inputMode="numeric"
            placeholder="8000"
            value={crawlTimeout}
            onInput={(e) => changed(setCrawlTimeout)((e.target as HTMLInputElement).value)}
          />
        </div>
        <PolicySelect
          id="screen-policy"
          value={policyId}
          policies={policies}
          withDefault
          onChange={changed(setPolicyId)}
        />
      </div>
      <p class="hint">
        A completed analysis costs {jobPriceWords(pricing)}; a failed one costs nothing. A policy changes the score, not
        the price; the standard model's score is kept beside it.
      </p>
      <button type="submit" disabled={busy}>
        {busy ? 'Submitting…' : 'Screen'}
      </button>
      {error &&
        !targetError &&
        (problem ? (
          <p class="notice notice-error" role="alert">
            {problem.text}
          </p>
        ) : (
          <ErrorNotice error={error} />
        ))}
      {error instanceof ApiError && error.status === 402 && (
        <p>
          <a href={hrefFor('credits')}>Go to Credits</a> to buy a package.
        </p>
      )}
    </form>
  );
}
