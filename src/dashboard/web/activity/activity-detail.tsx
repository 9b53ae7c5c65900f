import { Fragment, type ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api-client';
import { ErrorNotice } from '../components/error-notice';
import { useSession } from '../context';
import { hrefFor } from '../hash-route';
import { RiskLevel } from '../screen/risk-level';
import { activityTarget, activityTime } from './activity-query';
import { StatusWords, TYPE_WORDS } from './activity-table';
import type { ActivityDetail } from './activity-types';

/** The payload viewer: JSON as the API stored it, pretty-printed, or words when there is none. */
function Payload({ title, value, testId }: { title: string; value: unknown; testId: string }) {
  const empty =
    value === null || value === undefined || (typeof value === 'object' && Object.keys(value as object).length === 0);
  return (
    <>
      <h2>{title}</h2>
      {empty ? (
        <p class="hint">None was recorded.</p>
      ) : (
        <pre data-testid={testId}>{JSON.stringify(value, null, 2)}</pre>
      )}
    </>
  );
}

function Facts({ record }: { record: ActivityDetail }) {
  const facts: [string, ComponentChildren][] = [
    ['Time', activityTime(record.createdAt)],
    ['Type', TYPE_WORDS[record.activityType] ?? record.activityType],
    ['Chain', record.blockchain ?? '—'],
    ['Target', <span class="mono">{activityTarget(record)}</span>],
    ['Risk level', <RiskLevel level={record.riskLevel} />],
    ['Score', record.riskScore ?? '—'],
    ['Status', <StatusWords item={record} />],
    ...(record.errorMessage ? ([['Error', record.errorMessage]] as [string, string][]) : []),
    ['Source', record.source ?? '—'],
    ['Request id', <span class="mono">{record.requestId ?? '—'}</span>],
    ['Response id', <span class="mono">{record.responseId ?? '—'}</span>],
    ...(record.clientAppName || record.clientAppId
      ? ([['Client app', record.clientAppName ?? record.clientAppId]] as [string, string][])
      : []),
    ['Record id', <span class="mono">{record.id}</span>],
  ];
  return (
    <dl class="detail-facts" data-testid="activity-facts">
      {facts.map(([term, value]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

/** One history record (#/activity/<id>): what was asked, what was answered, and the caller's metadata. */
export function ActivityDetailView({ id }: { id: string }) {
  const { api } = useSession();
  const [record, setRecord] = useState<ActivityDetail | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let current = true;
    setRecord(null);
    setError(null);
    api
      .get<{ data: ActivityDetail }>(`/api/v1/activity/${encodeURIComponent(id)}`)
      .then((body) => current && setRecord(body.data))
      .catch((err: unknown) => current && setError(err));
    return () => {
      current = false;
    };
  }, [api, id]);

  const missing = error instanceof ApiError && error.status === 404;
  return (
    <section aria-labelledby="activity-detail-title">
      <p>
        <a href={hrefFor('activity')}>← Back to the history</a>
      </p>
      <h1 id="activity-detail-title">Activity record</h1>
      {missing ? (
        <p class="notice notice-error" role="alert">
          There is no record with this id in your history. It may belong to another account, or the link is mistyped.
        </p>
      ) : (
        <ErrorNotice error={error} />
      )}
      {!record && !error && <p role="status">Loading the record…</p>}
      {record && (
        <>
          <Facts record={record} />
          <Payload title="Request payload" value={record.requestPayload} testId="request-payload" />
          <Payload title="Response payload" value={record.responsePayload} testId="response-payload" />
          <Payload title="Metadata" value={record.metadata} testId="metadata" />
        </>
      )}
    </section>
  );
}
