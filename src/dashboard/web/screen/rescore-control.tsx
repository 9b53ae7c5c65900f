import { useRef, useState } from 'preact/hooks';
import { ApiError } from '../api-client';
import { ErrorNotice } from '../components/error-notice';
import { useSession } from '../context';
import { creditsWord } from '../credits/credits-word';
import { hrefFor } from '../hash-route';
import { PolicySelect, STANDARD_MODEL } from '../policies/policy-select';
import type { PoliciesState } from '../policies/use-policies';
import { RescoreResult } from './rescore-result';
import type { RescoreView } from './rescore-types';
import { useScreeningPricing } from './use-screening-pricing';

/**
 * "Rescore under…": the completed job's stored evidence scored again under another policy (or the standard model),
 * without reading any chain. Priced on the button (the server's price, once read); the result is shown below it.
 */
export function RescoreControl({ requestId, policies }: { requestId: string; policies: PoliciesState }) {
  const { api } = useSession();
  const [chosen, setChosen] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<RescoreView | null>(null);
  const inFlight = useRef(false);
  const pricing = useScreeningPricing();
  // The account's default policy first, once the list is in; the standard model when it has none.
  const policyId = chosen ?? policies.defaultPolicyId ?? policies.policies?.[0]?.id ?? STANDARD_MODEL;

  const submit = async (event: Event) => {
    event.preventDefault();
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    setError(null);
    try {
      const body = await api.post<{ data: RescoreView }>(`/api/v1/kyt/job/${encodeURIComponent(requestId)}/rescore`, {
        policy_id: policyId,
      });
      setResult(body.data);
    } catch (err) {
      setError(err);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return (
    <div class="rescore">
      <h3 id="rescore-title">Rescore under another policy</h3>
      <p class="hint">The stored evidence of this answer is scored again: no chain is read and nothing is crawled.</p>
      <form onSubmit={submit} class="inline-form" aria-labelledby="rescore-title">
        <div class="inline-form-field">
          <PolicySelect
            id="rescore-policy"
            label="Rescore under"
            value={policyId}
            policies={policies}
            withDefault={false}
            onChange={(id) => {
              setChosen(id);
              setError(null);
            }}
          />
        </div>
        <button type="submit" disabled={busy}>
          {busy ? 'Rescoring…' : pricing ? `Rescore (${creditsWord(pricing.rescore_credits)})` : 'Rescore'}
        </button>
      </form>
      <ErrorNotice error={error} />
      {error instanceof ApiError && error.status === 402 && (
        <p>
          <a href={hrefFor('credits')}>Go to Credits</a> to buy a package.
        </p>
      )}
      {result && <RescoreResult result={result} />}
    </div>
  );
}
