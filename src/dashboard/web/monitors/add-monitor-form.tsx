import { useState } from 'preact/hooks';
import { ApiError } from '../api-client';
import { AddressField } from '../components/address-field';
import { ErrorNotice } from '../components/error-notice';
import { useFormSubmission } from '../components/use-form-submission';
import { ChainSelect } from '../screen/chain-select';
import { chainName } from '../screen/screen-words';
import type { AlertLevel, Monitor, NewMonitor } from './monitor-types';
import { ALERT_LEVELS } from './monitor-words';

/** A 400 about the address, said with the chain's name; other refusals keep the API's own words. */
function addressProblem(err: unknown, chain: string): string | null {
  if (!(err instanceof ApiError) || err.parameter?.parameter !== 'address') return null;
  return `This is not a valid ${chainName(chain)} address. Expected ${err.parameter.expected}.`;
}

/** "Add a monitor": a chain, an address and the level from which a change alerts. */
export function AddMonitorForm({
  onAdd,
}: {
  onAdd: (input: NewMonitor) => Promise<{ monitor: Monitor; existed: boolean }>;
}) {
  const [chain, setChain] = useState('bitcoin');
  const [address, setAddress] = useState('');
  const [alertLevel, setAlertLevel] = useState<AlertLevel>('MEDIUM');
  const [done, setDone] = useState('');
  // A confirmation, like a complaint, is about what was sent.
  const { error, missing, busy, changed, submitting } = useFormSubmission(() => setDone(''));

  const submit = submitting(address, async (trimmed) => {
    const { monitor, existed } = await onAdd({
      chain: chain as NewMonitor['chain'],
      address: trimmed,
      alert_level: alertLevel,
    });
    setAddress('');
    setDone(
      existed
        ? `${monitor.address} on ${chainName(monitor.chain)} was already monitored: it is listed below.`
        : `Monitoring ${monitor.address} on ${chainName(monitor.chain)}: the result of its first screening ` +
            'appears in the list below.',
    );
  });

  const problem = addressProblem(error, chain);
  const addressError = missing ? 'Enter the address to monitor.' : problem;

  return (
    <form onSubmit={submit} aria-labelledby="add-monitor-title" noValidate>
      <div class="form-grid">
        <ChainSelect id="monitor-chain" value={chain} onChange={changed(setChain)} />
        <div>
          <label for="monitor-alert-level">Alert level</label>
          <select
            id="monitor-alert-level"
            value={alertLevel}
            aria-describedby="monitor-alert-level-help"
            onChange={(e) => changed(setAlertLevel)((e.target as HTMLSelectElement).value as AlertLevel)}
          >
            {ALERT_LEVELS.map(([level, words]) => (
              <option key={level} value={level}>
                {words}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p id="monitor-alert-level-help" class="hint">
        A change of the risk level or of the findings alerts when either side is at this level or above; a change of the
        sanctioned flag always alerts.
      </p>
      <AddressField
        id="monitor-address"
        label="Address"
        value={address}
        error={addressError}
        onInput={changed(setAddress)}
      />
      <p class="hint">
        The address is screened at once, then again whenever a sanctions list changes it or an address it dealt with, on
        a schedule, and when you ask. Each screening is a screening job of your account and costs credits like one.
      </p>
      <button type="submit" disabled={busy}>
        {busy ? 'Adding…' : 'Add monitor'}
      </button>
      {error && !addressError && <ErrorNotice error={error} />}
      <p role="status" class={done ? 'notice monitor-added' : 'visually-hidden'}>
        {done}
      </p>
    </form>
  );
}
