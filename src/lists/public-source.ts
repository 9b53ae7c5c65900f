/**
 * How GET /api/v1/lists names a list source: a URL without its credentials (user:pass@), query string and
 * fragment, where keys and signed-download tokens travel; anything else (a file path) as it is. What is stored
 * and logged is the source itself (the logger redacts URLs on its own).
 */
export function publicSource(source: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) return source;
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    // Shaped like a URL but not one: cut at the first character that could start credentials or a query.
    return source.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*@)?([^?#]*).*$/is, '$1$3');
  }
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url.href;
}
