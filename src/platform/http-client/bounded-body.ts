/** What HTTP_MAX_RESPONSE_BYTES defaults to: far above any page a provider sends, far below a worker's memory. */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** The answer's body ran past the cap; nothing beyond the cap was read. */
export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`response larger than ${maxBytes} bytes (HTTP_MAX_RESPONSE_BYTES)`);
  }
}

/**
 * The body as text, read as a stream and counted: a declared Content-Length over the cap is refused before
 * reading, and an undeclared or lying one is cut as soon as the count passes the cap (the stream is cancelled,
 * which closes the connection), so a provider cannot make a worker hold more than `maxBytes` of one answer.
 */
export async function readBoundedText(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(maxBytes);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ResponseTooLargeError(maxBytes);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
