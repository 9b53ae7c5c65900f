import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { deadline, raceSignal } from '../../platform/abort/deadline';
import { withoutUserinfo } from '../../platform/http-client/endpoint-secrets';
import { SdnSourceError } from './sdn-source-error';

/**
 * Redirects followed at most: OFAC's endpoint answers with one, to the signed storage URL of the file. More is a
 * loop or a server that is not OFAC's.
 */
export const SDN_MAX_REDIRECTS = 3;

const isRedirect = (status: number) => [301, 302, 303, 307, 308].includes(status);

/**
 * The body of `url` as a stream, the whole download (redirects included) bounded by `timeoutMs` and the caller's
 * signal.
 *
 * Not the project's HTTP client (src/platform/http-client): it reads every answer whole as text (res.text()) to
 * classify it and retries by sending the request again, which suits JSON APIs but would hold a 120 MB issue in
 * memory as one string. This is the one download of that size, so it is a plain streaming fetch; a failed
 * download is not retried here, the next scheduled refresh is the retry. Like that client it follows no redirect
 * blindly: at most SDN_MAX_REDIRECTS, each to an http(s) URL, and the URL's credentials (user:pass@, sent as
 * Basic authorization) go to its own origin only.
 */
export async function downloadStream(
  url: URL,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  doFetch: typeof fetch = fetch,
): Promise<Readable> {
  // Never the URL whole in a message: it may carry a key.
  const where = `${url.host}${url.pathname}`;
  const limit = deadline(timeoutMs, signal);
  const timedOut = () => new SdnSourceError(`the download of ${where} took longer than ${timeoutMs} ms`);
  const fail = async (res: Response | undefined, message: string): Promise<never> => {
    limit.dispose();
    await res?.body?.cancel().catch(() => undefined);
    throw new SdnSourceError(`cannot download ${where}: ${message}`);
  };
  const { url: first, authorization } = withoutUserinfo(url);
  let target = first;
  let res: Response;
  for (let redirects = 0; ; redirects++) {
    try {
      res = await raceSignal(
        doFetch(target, {
          signal: limit.signal,
          redirect: 'manual',
          headers: {
            accept: 'application/xml, */*',
            ...(authorization && target.origin === first.origin ? { authorization } : {}),
          },
        }),
        limit.signal,
      );
    } catch (err) {
      limit.dispose();
      if (limit.timedOut) throw timedOut();
      if (signal?.aborted) throw err;
      throw new SdnSourceError(`cannot download ${where}: ${err instanceof Error ? err.message : String(err)}`, {
        cause: err,
      });
    }
    if (!isRedirect(res.status)) break;
    if (redirects === SDN_MAX_REDIRECTS) return fail(res, `more than ${SDN_MAX_REDIRECTS} redirects`);
    let next: URL;
    try {
      next = new URL(res.headers.get('location') ?? '', target);
    } catch {
      return fail(res, `HTTP ${res.status} to a location that is not a URL`);
    }
    if (next.protocol !== 'https:' && next.protocol !== 'http:')
      return fail(res, `HTTP ${res.status} to a ${next.protocol} URL: only http(s) is followed`);
    await res.body?.cancel().catch(() => undefined);
    target = withoutUserinfo(next).url;
  }
  if (!res.ok || !res.body) return fail(res, `HTTP ${res.status}`);
  const body = Readable.fromWeb(res.body as ReadableStream<Uint8Array>);
  // fetch errors the body when its signal aborts; destroying it here as well names the cause.
  const onAbort = () => body.destroy(limit.timedOut ? timedOut() : limit.signal.reason);
  limit.signal.addEventListener('abort', onAbort, { once: true });
  body.once('close', () => {
    limit.signal.removeEventListener('abort', onAbort);
    limit.dispose();
  });
  return body;
}
