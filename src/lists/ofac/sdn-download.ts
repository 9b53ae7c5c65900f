import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { deadline, raceSignal } from '../../platform/abort/deadline';
import { SdnSourceError } from './sdn-source-error';

/**
 * The body of `url` as a stream, the whole download bounded by `timeoutMs` and the caller's signal.
 *
 * Not the project's HTTP client (src/platform/http-client): it reads every answer whole as text (res.text()) to
 * classify it and retries by sending the request again, which suits JSON APIs but would hold a 120 MB issue in
 * memory as one string. This is the one download of that size, so it is a plain streaming fetch; a failed
 * download is not retried here, the next scheduled refresh is the retry.
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
  let res: Response;
  try {
    res = await raceSignal(
      doFetch(url, { signal: limit.signal, headers: { accept: 'application/xml, */*' } }),
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
  if (!res.ok || !res.body) {
    limit.dispose();
    await res.body?.cancel().catch(() => undefined);
    throw new SdnSourceError(`cannot download ${where}: HTTP ${res.status}`);
  }
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
