import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { addAbortSignal, pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { bunzip2 } from './bunzip2-process';
import { downloadStream } from './sdn-download';
import { SdnSourceError } from './sdn-source-error';

export { SdnSourceError } from './sdn-source-error';

export interface SdnSourceOptions {
  /** Bound of a whole http(s) download, read to its end (default 5 minutes). */
  downloadTimeoutMs?: number;
  fetch?: typeof fetch;
  /** The bzip2 program for .bz2 issues, by name or path (default `bzip2`; lbzip2 decompresses on every core). */
  bzip2?: string;
}

const DEFAULT_DOWNLOAD_TIMEOUT_MS = 5 * 60_000;

const isUrl = (location: string) => /^https?:\/\//i.test(location);

/** Decompresses by the name's extension: .gz (zlib), .bz2 (the system's bzip2); anything else is read as it is. */
function decompressed(raw: Readable, name: string, bzip2: string | undefined): Readable {
  const lower = name.toLowerCase();
  if (lower.endsWith('.gz')) return pipeline(raw, createGunzip(), () => undefined);
  if (lower.endsWith('.bz2')) return bunzip2(raw, bzip2);
  return raw;
}

async function openFile(file: string): Promise<Readable> {
  const info = await stat(file).catch((err: unknown) => {
    throw new SdnSourceError(`cannot read the SDN issue ${file}: ${err instanceof Error ? err.message : err}`, {
      cause: err,
    });
  });
  if (!info.isFile()) throw new SdnSourceError(`cannot read the SDN issue ${file}: not a file`);
  return createReadStream(file, { highWaterMark: 256 * 1024 });
}

/**
 * The XML bytes of an SDN Advanced issue at `location`: a file path or an http(s) URL, plain or compressed (.gz,
 * .bz2), streamed: nothing is held whole, so parseSdnAdvanced's sha256 is that of the uncompressed XML. Rejects
 * with SdnSourceError when the location cannot be opened; a failure later in the read (a download cut or past its
 * deadline, bzip2 failing) errors the stream. `signal` aborts the read wherever it is.
 */
export async function openSdnSource(
  location: string,
  signal?: AbortSignal,
  options: SdnSourceOptions = {},
): Promise<Readable> {
  signal?.throwIfAborted();
  let raw: Readable;
  let name: string;
  if (isUrl(location)) {
    const url = new URL(location);
    name = url.pathname;
    raw = await downloadStream(url, options.downloadTimeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS, signal, options.fetch);
  } else {
    name = location;
    raw = await openFile(location);
  }
  const xml = decompressed(raw, name, options.bzip2);
  return signal ? addAbortSignal(signal, xml) : xml;
}
