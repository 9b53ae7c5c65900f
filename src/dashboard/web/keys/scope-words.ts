import type { ApiKeyRecord } from './key-types';

type Scope = ApiKeyRecord['scopes'][number];

/** What each scope lets a key do, in the words of the create form (docs/api.md#key-scopes-and-limits). */
export const SCOPE_WORDS: Record<Scope, string> = {
  read: 'Read: job results, history, balance, lists, monitors, market data',
  screening: 'Screening: submit jobs, add and re-screen monitors',
  billing: 'Billing: checkout (admins: grants, refunds)',
  keys: 'Keys: create and revoke keys',
};

/** "read, screening": a key's scopes as listed; every scope reads "all". */
export function scopesWords(scopes: readonly Scope[]): string {
  return scopes.length === Object.keys(SCOPE_WORDS).length ? 'all' : scopes.join(', ');
}
