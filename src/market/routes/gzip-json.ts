import type { Request, RequestHandler, Response } from 'express';
import { gzip } from 'node:zlib';

const THRESHOLD_BYTES = 8192;

/**
 * Sends JSON text as it is, gzipped when it is large and the client accepts gzip. A 1000-candle answer is ~135 kB
 * of JSON; gzip level 1 makes it ~21 kB in about a millisecond (measured), which is most of the transfer time for a
 * client on a real network. Small answers are sent as they are: compressing them costs more than it saves.
 */
export function sendJsonText(req: Request, res: Response, text: string, thresholdBytes = THRESHOLD_BYTES): void {
  res.type('application/json');
  if (text.length < thresholdBytes || req.acceptsEncodings('gzip', 'identity') !== 'gzip') {
    res.send(text);
    return;
  }
  gzip(text, { level: 1 }, (err, compressed) => {
    if (err) res.send(text);
    else res.set('Content-Encoding', 'gzip').send(compressed);
  });
}

/** Every JSON answer of the market routes goes through sendJsonText: serialised once, then sent plain or gzipped. */
export function gzipLargeJson(thresholdBytes = THRESHOLD_BYTES): RequestHandler {
  return (req, res, next) => {
    res.vary('Accept-Encoding');
    // Replaces res.json for this response only.
    res.json = (body: unknown) => {
      sendJsonText(req, res, JSON.stringify(body), thresholdBytes);
      return res;
    };
    next();
  };
}
