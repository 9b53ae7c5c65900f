import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice';
import { hrefFor } from '../hash-route';
import { utcMinuteOrDash } from '../markets/utc-time';
import { chainName } from '../screen/screen-words';
import { DeleteMonitorControl } from './delete-monitor-control';
import type { Monitor } from './monitor-types';
import { alertLevelWords } from './monitor-words';
import { RiskSummary } from './risk-summary';

export interface MonitorActions {
  rescreen(monitor: Monitor): Promise<void>;
  remove(id: string): Promise<void>;
  rescreenRequested(id: string): boolean;
}

function StatusWords({ monitor }: { monitor: Monitor }) {
  if (monitor.status === 'paused')
    return <span class="status-error">Paused{monitor.paused_reason ? `: ${monitor.paused_reason}` : ''}</span>;
  return <>Active</>;
}

/** A paused monitor waits for credits: where to get them (a grant or a purchase resumes it by itself). */
function PausedHelp() {
  return (
    <p class="hint monitor-paused-help">
      <a href={hrefFor('credits')}>Go to Credits</a> to buy a package: the monitor resumes by itself once credits are
      added.
    </p>
  );
}

/** What is under way for this monitor, in words, or nothing. */
function pendingWords(monitor: Monitor, requested: boolean): string {
  if (monitor.status === 'paused')
    return requested ? 'Re-screen requested: it runs once the monitor resumes (after a grant or a purchase).' : '';
  if (!monitor.last_result) return 'The first screening is running; its result appears here.';
  return requested ? 'Re-screen requested; the new result appears here.' : '';
}

/** One monitor: its address, status and last result, a link to its alerts, re-screen and delete. */
export function MonitorCard({
  monitor,
  selected,
  actions,
}: {
  monitor: Monitor;
  selected: boolean;
  actions: MonitorActions;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const pending = pendingWords(monitor, actions.rescreenRequested(monitor.id));

  const rescreen = async () => {
    setBusy(true);
    setError(null);
    try {
      await actions.rescreen(monitor);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const named = <span class="visually-hidden"> {monitor.address}</span>;
  return (
    <li class="monitor" data-testid="monitor-row" data-id={monitor.id} aria-current={selected ? 'true' : undefined}>
      <h3 class="monitor-target mono">{monitor.address}</h3>
      <p class="hint">
        {chainName(monitor.chain)} · alerts on {alertLevelWords(monitor.alert_level)} ·{' '}
        <span class="nowrap">screened every {monitor.every_hours} h</span>
        {monitor.reference_id ? ` · reference ${monitor.reference_id}` : ''}
      </p>
      <dl class="monitor-facts">
        <dt>Status</dt>
        <dd data-testid="monitor-status">
          <StatusWords monitor={monitor} />
        </dd>
        <dt>Last result</dt>
        <dd data-testid="monitor-result">
          <RiskSummary summary={monitor.last_result} />
        </dd>
        <dt>Last screened</dt>
        <dd data-testid="monitor-screened-at">{utcMinuteOrDash(monitor.last_screened_at)}</dd>
      </dl>
      {monitor.status === 'paused' && <PausedHelp />}
      <p class="hint monitor-pending" role="status">
        {pending}
      </p>
      <div class="form-actions">
        {selected ? (
          <span class="hint">Alerts shown below</span>
        ) : (
          <a href={hrefFor('monitors', monitor.id)}>
            Show alerts
            {named}
          </a>
        )}
        <button type="button" class="secondary" disabled={busy} onClick={rescreen}>
          {busy ? 'Asking…' : 'Re-screen now'}
          {named}
        </button>
        <DeleteMonitorControl monitor={monitor} onDelete={actions.remove} />
      </div>
      <ErrorNotice error={error} />
    </li>
  );
}
