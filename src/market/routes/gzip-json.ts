import type { RequestHandler } from 'express';
import { gzip } from 'node:zlib';

/**
 * A 1000-candle answer is ~135 kB of JSON; gzip level 1 makes it ~21 kB in about a millisecond
 * (measured), which is most of the transfer time for a client on a real network. Small answers are
 * sent as they are: compressing them costs more than it saves.
 */
export function gzipLargeJson(thresholdBytes = 8192): RequestHandler {
  return (req, res, next) => {
    res.vary('Accept-Encoding');
    // Replaces res.json for this response only: the body is serialised once, then sent plain or gzipped.
    res.json = (body: unknown) => {
      const text = JSON.stringify(body);
      res.type('application/json');
      if (Buffer.byteLength(text) < thresholdBytes || req.acceptsEncodings('gzip', 'identity') !== 'gzip')
        return res.send(text);
      gzip(text, { level: 1 }, (err, compressed) => {
        if (err) res.send(text);
        else res.set('Content-Encoding', 'gzip').send(compressed);
      });
      return res;
    };
    next();
  };
}
