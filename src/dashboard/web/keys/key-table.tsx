import { utcMinuteOrDash } from '../markets/utc-time';
import type { ApiKeyRecord } from './key-types';
import { rateLimitWords } from './rate-limit-words';
import { scopesWords } from './scope-words';
import { RevokeControl } from './revoke-control';

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
  if (keys.length === 0) return <p class="hint">This account has no API keys yet.</p>;
  return (
    <div class="table-scroll">
      <table class="key-table" data-testid="key-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Prefix</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Rate limit</th>
            <th scope="col">Scopes</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => {
            const isSignedInKey = key.prefix === signedInPrefix && !key.revokedAt;
            return (
              <tr key={key.id} data-key-prefix={key.prefix} class={key.revokedAt ? 'key-revoked' : undefined}>
                <td>
                  {key.name}
                  {isSignedInKey && <div class="hint">signed in with this key</div>}
                </td>
                <td class="mono">{key.prefix}…</td>
                <td>{utcMinuteOrDash(key.createdAt)}</td>
                <td>{key.lastUsedAt ? utcMinuteOrDash(key.lastUsedAt) : 'never'}</td>
                <td>{rateLimitWords(key.rateLimit)}</td>
                <td data-testid="key-scopes">{scopesWords(key.scopes)}</td>
                <td>
                  {key.revokedAt ? (
                    `Revoked ${utcMinuteOrDash(key.revokedAt)}`
                  ) : (
                    <RevokeControl apiKey={key} isSignedInKey={isSignedInKey} onRevoked={onRevoked} />
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
