/**
 * A provider's endpoint URL comes from configuration and often carries a credential: userinfo
 * (http://user:pass@host), a key in the path (Infura /v3/<key>, QuickNode /<token>/, an Esplora behind a token)
 * or in the query (?apikey=). Errors about a call name the provider and the path relative to the endpoint; these
 * helpers keep the endpoint's own parts out of every text built from an answer or a network error.
 */

const URL_SHAPE = /[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`\\]+/gi;

/**
 * A path segment is treated as a possible key when it is long and holds a digit (Infura's hex, Alchemy's and
 * QuickNode's tokens), or is very long: "api", "v1", "rpc", "mainnet" or "etherscan" are not keys.
 */
const looksLikeKey = (segment: string) => (segment.length >= 8 && /\d/.test(segment)) || segment.length >= 20;
/** Shorter parts are left alone: they would match ordinary words. */
const MIN_SECRET = 4;

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

const longestFirst = (parts: string[]) =>
  [...new Set(parts.flatMap((part) => [part, decoded(part)]).filter((part) => part.length >= MIN_SECRET))].sort(
    (a, b) => b.length - a.length,
  );

/**
 * The URL without its userinfo, and the `Authorization: Basic` header it stood for: fetch refuses a URL with
 * credentials, and its error would quote the whole URL.
 */
export function withoutUserinfo(url: URL): { url: URL; authorization?: string } {
  if (!url.username && !url.password) return { url };
  const bare = new URL(url);
  bare.username = '';
  bare.password = '';
  const credentials = `${decoded(url.username)}:${decoded(url.password)}`;
  return { url: bare, authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
}

/** Every part of `endpoint` that may be a credential, longest first (so a whole path goes before its segments). */
export function endpointSecrets(endpoint: string | URL): string[] {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return longestFirst([String(endpoint)]);
  }
  const segments = url.pathname.split('/').filter(looksLikeKey);
  return longestFirst([
    url.href,
    // What the userinfo is sent as (withoutUserinfo): a server may quote the header back.
    withoutUserinfo(url).authorization?.slice('Basic '.length) ?? '',
    url.pathname.length > 1 ? url.pathname : '',
    url.search,
    ...url.searchParams.values(),
    url.username,
    url.password,
    url.host,
    ...segments,
  ]);
}

/** The credentials a request URL carries itself (userinfo, query values), for a client that knows no endpoint. */
export function requestCredentials(url: URL): string[] {
  return longestFirst([url.username, url.password, ...url.searchParams.values()]);
}

/**
 * `text` (an answer's snippet, a network error) with every URL replaced by `<url>` and every one of `secrets`
 * (endpointSecrets, requestCredentials) by `<redacted>`.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text.replace(URL_SHAPE, '<url>');
  for (const secret of secrets) out = out.split(secret).join('<redacted>');
  return out;
}

/** redactSecrets over every part of `endpoint` that may be a credential. */
export function redactEndpoint(text: string, endpoint: string | URL): string {
  return redactSecrets(text, endpointSecrets(endpoint));
}

/**
 * How an error names a request: its path below the provider's endpoint (whose own path may hold a key), never the
 * query (keys travel there too). Without an endpoint, the request's path.
 */
export function relativePath(url: URL, endpoint: string | URL | undefined): string {
  if (endpoint === undefined) return url.pathname;
  let basePath: string;
  try {
    basePath = new URL(endpoint).pathname.replace(/\/$/, '');
  } catch {
    return '/';
  }
  if (basePath === '') return url.pathname;
  // A path outside the endpoint's (it should not happen) is not named at all.
  if (!url.pathname.startsWith(basePath)) return '/';
  const rest = url.pathname.slice(basePath.length);
  return rest === '' ? '/' : rest.startsWith('/') ? rest : `/${rest}`;
}
