import { useEffect, useRef } from 'preact/hooks';
import { ApiError } from '../api-client';
import { ErrorNotice } from '../components/error-notice';
import { hrefFor } from '../hash-route';
import { utcMinuteOrDash } from '../markets/utc-time';
import { chainName } from '../screen/screen-words';
import type { Monitor, MonitorAlert } from './monitor-types';
import { ALERT_KIND_WORDS } from './monitor-words';
import { RiskSummary } from './risk-summary';
import { useMonitorAlerts } from './use-monitor-alerts';

function AlertItem({ alert }: { alert: MonitorAlert }) {
  return (
    <li class={`monitor-alert alert-${alert.kind}`} data-testid="monitor-alert" data-id={alert.id}>
      <p class="alert-title">
        <strong data-testid="alert-kind">{ALERT_KIND_WORDS[alert.kind]}</strong>
        <time dateTime={alert.created_at}>{utcMinuteOrDash(alert.created_at)}</time>
      </p>
      <p class="alert-reason" data-testid="alert-reason">
        {alert.reason}
      </p>
      {alert.kind === 'risk_changed' && (
        <dl class="monitor-facts">
          <dt>Before</dt>
          <dd data-testid="alert-before">
            <RiskSummary summary={alert.before} />
          </dd>
          <dt>After</dt>
          <dd data-testid="alert-after">
            <RiskSummary summary={alert.after} />
          </dd>
        </dl>
      )}
      {alert.request_id && (
        <p class="hint">
          Request id <span class="mono">{alert.request_id}</span>
        </p>
      )}
    </li>
  );
}

/**
 * The alerts of the monitor chosen in the URL (#/monitors/<id>), newest first, with alerts arriving live on top.
 * The heading takes the focus when a monitor is chosen, so keyboard and screen-reader users land on its alerts.
 */
export function MonitorAlerts({ monitorId, monitor }: { monitorId: string; monitor: Monitor | undefined }) {
  const { page, error, loadingOlder, showOlder } = useMonitorAlerts(monitorId);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [monitorId]);

  const missing = error instanceof ApiError && error.status === 404;
  return (
    <section aria-labelledby="monitor-alerts-title" data-testid="monitor-alerts" aria-busy={page ? 'false' : 'true'}>
      <h2 id="monitor-alerts-title" tabIndex={-1} ref={heading}>
        Alerts{monitor ? ' of ' : ''}
        {monitor && <span class="mono">{monitor.address}</span>}
        {monitor && <span class="hint"> ({chainName(monitor.chain)})</span>}
      </h2>
      {missing ? (
        <p class="notice notice-error" role="alert">
          None of your monitors has this id. It may have been deleted, or the link is mistyped.
        </p>
      ) : (
        <ErrorNotice error={error} />
      )}
      {!page && !error && <p role="status">Loading the alerts…</p>}
      {page && page.alerts.length === 0 && (
        <p class="hint" data-testid="alerts-empty">
          No alerts yet. A change of the risk level, the sanctioned flag or the findings appears here the moment it is
          found, as does a pause when the account cannot pay for a screening.
        </p>
      )}
      {page && page.alerts.length > 0 && (
        <ol class="alert-list" data-testid="alert-list">
          {page.alerts.map((alert) => (
            <AlertItem key={alert.id} alert={alert} />
          ))}
        </ol>
      )}
      <div class="form-actions">
        {page && page.alerts.length < page.total && (
          <button type="button" class="secondary" disabled={loadingOlder} onClick={() => void showOlder()}>
            {loadingOlder ? 'Loading older alerts…' : 'Show older alerts'}
          </button>
        )}
        <a href={hrefFor('monitors')}>Close the alerts</a>
      </div>
    </section>
  );
}
