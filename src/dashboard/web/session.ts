/** How the person signed in: an API key (sent as x-api-key) or a Clerk session JWT (sent as Bearer). */
export interface Credential {
  kind: 'apiKey' | 'sessionJwt';
  token: string;
}

// sessionStorage, not localStorage: a key pasted into the dashboard is forgotten when the tab closes.
const STORAGE_KEY = 'chainscreen.credential';

export function loadCredential(): Credential | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    const parsed = raw ? (JSON.parse(raw) as Credential) : null;
    return parsed && (parsed.kind === 'apiKey' || parsed.kind === 'sessionJwt') && typeof parsed.token === 'string'
      ? parsed
      : null;
  } catch {
    return null;
  }
}

export function saveCredential(credential: Credential | null): void {
  if (credential) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(credential));
  else sessionStorage.removeItem(STORAGE_KEY);
}

export function authHeaders(credential: Credential): Record<string, string> {
  return credential.kind === 'apiKey'
    ? { 'x-api-key': credential.token }
    : { authorization: `Bearer ${credential.token}` };
}
