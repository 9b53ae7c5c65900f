import { Fragment, type ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api-client';
import { ErrorNotice } from '../components/error-notice';
import { useSession } from '../context';
import { hrefFor } from '../hash-route';
import { RiskLevel } from '../screen/risk-level';
import { historyEntryTarget, historyEntryTime } from './history-query';
import { StatusWords, TYPE_WORDS } from './history-table';
import type { HistoryEntryDetail } from './history-types';

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

function Facts({ entry }: { entry: HistoryEntryDetail }) {
  const facts: [string, ComponentChildren][] = [
    ['Time', historyEntryTime(entry.createdAt)],
    ['Type', TYPE_WORDS[entry.activityType] ?? entry.activityType],
    ['Chain', entry.blockchain ?? '—'],
    ['Target', <span class="mono">{historyEntryTarget(entry)}</span>],
    ['Risk level', <RiskLevel level={entry.riskLevel} />],
    ['Score', entry.riskScore ?? '—'],
    ['Status', <StatusWords item={entry} />],
    ...(entry.errorMessage ? ([['Error', entry.errorMessage]] as [string, string][]) : []),
    ['Source', entry.source ?? '—'],
    ['Request id', <span class="mono">{entry.requestId ?? '—'}</span>],
    ['Response id', <span class="mono">{entry.responseId ?? '—'}</span>],
    ...(entry.clientAppName || entry.clientAppId
      ? ([['Client app', entry.clientAppName ?? entry.clientAppId]] as [string, string][])
      : []),
    ['Record id', <span class="mono">{entry.id}</span>],
  ];
  return (
    <dl class="detail-facts" data-testid="history-facts">
      {facts.map(([term, value]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

/** One history entry (#/activity/<id>): what was asked, what was answered, and the caller's metadata. */
export function HistoryEntryView({ id }: { id: string }) {
  const { api } = useSession();
  const [entry, setEntry] = useState<HistoryEntryDetail | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let current = true;
    setEntry(null);
    setError(null);
    api
      .get<{ data: HistoryEntryDetail }>(`/api/v1/activity/${encodeURIComponent(id)}`)
      .then((body) => current && setEntry(body.data))
      .catch((err: unknown) => current && setError(err));
    return () => {
      current = false;
    };
  }, [api, id]);

  const missing = error instanceof ApiError && error.status === 404;
  return (
    <section aria-labelledby="history-detail-title">
      <p>
        <a href={hrefFor('activity')}>← Back to the history</a>
      </p>
      <h1 id="history-detail-title">Activity record</h1>
      {missing ? (
        <p class="notice notice-error" role="alert">
          There is no record with this id in your history. It may belong to another account, or the link is mistyped.
        </p>
      ) : (
        <ErrorNotice error={error} />
      )}
      {!entry && !error && <p role="status">Loading the record…</p>}
      {entry && (
        <>
          <Facts entry={entry} />
          <Payload title="Request payload" value={entry.requestPayload} testId="request-payload" />
          <Payload title="Response payload" value={entry.responsePayload} testId="response-payload" />
          <Payload title="Metadata" value={entry.metadata} testId="metadata" />
        </>
      )}
    </section>
  );
}
