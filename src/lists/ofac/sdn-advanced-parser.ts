import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser } from 'saxes';
import { addressEntries } from './sdn-address-entries';
import { SdnDocumentReader } from './sdn-document-reader';
import { SdnFormatError } from './sdn-format-error';
import type { SdnIssue } from './sdn-issue';

export type { SdnAddressEntry, SdnIssue } from './sdn-issue';
export { SdnFormatError } from './sdn-format-error';

/** The longest text node, attribute value, comment or tag read (characters): OFAC's longest is a few hundred. */
export const SDN_MAX_TEXT_CHARS = 64 * 1024;
/** The largest document read (uncompressed bytes): the issue is about 120 MB; this leaves it room to grow 4×. */
export const SDN_MAX_DOCUMENT_BYTES = 512 * 1024 * 1024;

export interface SdnParseLimits {
  /** Default SDN_MAX_TEXT_CHARS. */
  maxTextChars?: number;
  /** Default SDN_MAX_DOCUMENT_BYTES. */
  maxDocumentBytes?: number;
}

/**
 * Reads an issue of OFAC's SDN Advanced XML (sdn_advanced.xml, about 120 MB) as it streams in, keeping only the
 * parties with digital currency addresses: memory stays a few MB above the parser's, whatever the issue's size.
 * The sha256 and byte count are of the bytes read, i.e. of the uncompressed XML when `input` decompresses.
 *
 * Bounded, because the source may be a server that is not OFAC's: a document past `maxDocumentBytes` (a
 * decompression bomb included) and a text node, attribute, comment or tag longer than `maxTextChars` are refused
 * as soon as the count passes the limit, so neither the parser's buffer nor a captured text grows past it.
 *
 * Rejects with SdnFormatError when the input is not a whole SDN Advanced document (not XML, another document,
 * truncated, no DateOfIssue, over a limit); an error of the input stream itself (I/O, decompression, abort)
 * rejects as it is.
 */
export async function parseSdnAdvanced(input: Readable, limits: SdnParseLimits = {}): Promise<SdnIssue> {
  const maxTextChars = limits.maxTextChars ?? SDN_MAX_TEXT_CHARS;
  const maxDocumentBytes = limits.maxDocumentBytes ?? SDN_MAX_DOCUMENT_BYTES;
  const tooLong = () =>
    new SdnFormatError(`a text, attribute, comment or tag longer than ${maxTextChars} characters: not an SDN issue`);
  const reader = new SdnDocumentReader({ maxTextChars });
  const xml = new SaxesParser();
  // Where the parser last finished a piece of markup (read inside its handlers): it holds unfinished what follows.
  let markedAt = 0;
  const mark = () => {
    markedAt = xml.position;
  };
  const checked = (text: string) => {
    mark();
    if (text.length > maxTextChars) throw tooLong();
    return text;
  };
  xml.on('opentagstart', mark);
  xml.on('attribute', mark);
  xml.on('opentag', (tag) => {
    mark();
    reader.openTag(tag.name, tag.attributes);
  });
  xml.on('text', (text) => reader.text(checked(text)));
  xml.on('cdata', (text) => reader.text(checked(text)));
  xml.on('comment', checked);
  xml.on('processinginstruction', mark);
  xml.on('doctype', checked);
  xml.on('xmldecl', mark);
  xml.on('closetag', (tag) => {
    mark();
    reader.closeTag(tag.name);
  });

  // Characters written so far (the parser's own position is only meaningful inside its handlers).
  let written = 0;
  const write = (text: string) => {
    // In slices of the limit, each followed by the check: the parser never buffers much more than the limit.
    for (let at = 0; at < text.length; at += maxTextChars) {
      const slice = text.slice(at, at + maxTextChars);
      written += slice.length;
      xml.write(slice);
      if (written - markedAt > maxTextChars) throw tooLong();
    }
  };
  const feed = (text: string | null) => {
    try {
      if (text === null) xml.close();
      else if (text !== '') write(text);
    } catch (err) {
      if (err instanceof SdnFormatError) throw err;
      throw new SdnFormatError(`not well-formed XML: ${err instanceof Error ? err.message : String(err)}`, {
        cause: err,
      });
    }
  };

  const hash = createHash('sha256');
  const decoder = new StringDecoder('utf8');
  let bytes = 0;
  for await (const chunk of input) {
    const buffer: Buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    bytes += buffer.length;
    if (bytes > maxDocumentBytes)
      throw new SdnFormatError(`the document is larger than ${maxDocumentBytes} bytes: not an SDN issue`);
    hash.update(buffer);
    feed(decoder.write(buffer));
  }
  feed(decoder.end());
  feed(null);

  const document = reader.finish();
  return { issueDate: document.issueDate, entries: addressEntries(document), sha256: hash.digest('hex'), bytes };
}
