import { type Column, DataTable } from '../components/data-table';
import { utcMinuteOrDash } from '../markets/utc-time';
import type { ApiKeyRecord } from './key-types';
import { rateLimitWords } from './rate-limit-words';
import { RevokeControl } from './revoke-control';
import { scopesWords } from './scope-words';

const columnsFor = (signedInPrefix: string | null, onRevoked: () => void): Column<ApiKeyRecord>[] => {
  const isSignedInKey = (key: ApiKeyRecord) => key.prefix === signedInPrefix && !key.revokedAt;
  return [
    {
      header: 'Name',
      cell: (key) => (
        <>
          {key.name}
          {isSignedInKey(key) && <div class="hint">signed in with this key</div>}
        </>
      ),
    },
    { header: 'Prefix', cell: (key) => `${key.prefix}…`, class: 'mono' },
    { header: 'Created', cell: (key) => utcMinuteOrDash(key.createdAt) },
    { header: 'Last used', cell: (key) => (key.lastUsedAt ? utcMinuteOrDash(key.lastUsedAt) : 'never') },
    { header: 'Rate limit', cell: (key) => rateLimitWords(key.rateLimit) },
    { header: 'Scopes', cell: (key) => scopesWords(key.scopes), testId: 'key-scopes' },
    {
      header: 'Status',
      cell: (key) =>
        key.revokedAt ? (
          `Revoked ${utcMinuteOrDash(key.revokedAt)}`
        ) : (
          <RevokeControl apiKey={key} isSignedInKey={isSignedInKey(key)} onRevoked={onRevoked} />
        ),
    },
  ];
};

/** Every key of the account, by prefix only; revoked keys stay listed with the time they stopped working. */
export function KeyTable({
  keys,
  signedInPrefix,
  onRevoked,
}: {
  keys: ApiKeyRecord[];
  signedInPrefix: string | null;
  onRevoked: () => void;
}) {
  return (
    <DataTable
      class="key-table"
      testId="key-table"
      columns={columnsFor(signedInPrefix, onRevoked)}
      rows={keys}
      rowKey={(key) => key.id}
      rowAttributes={(key) => ({ 'data-key-prefix': key.prefix, class: key.revokedAt ? 'key-revoked' : undefined })}
      empty="This account has no API keys yet."
    />
  );
}
