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

/**
 * Reads an issue of OFAC's SDN Advanced XML (sdn_advanced.xml, about 120 MB) as it streams in, keeping only the
 * parties with digital currency addresses: memory stays a few MB above the parser's, whatever the issue's size.
 * The sha256 and byte count are of the bytes read, i.e. of the uncompressed XML when `input` decompresses.
 *
 * Rejects with SdnFormatError when the input is not a whole SDN Advanced document (not XML, another document,
 * truncated, no DateOfIssue); an error of the input stream itself (I/O, decompression, abort) rejects as it is.
 */
export async function parseSdnAdvanced(input: Readable): Promise<SdnIssue> {
  const reader = new SdnDocumentReader();
  const xml = new SaxesParser();
  xml.on('opentag', (tag) => reader.openTag(tag.name, tag.attributes));
  xml.on('text', (text) => reader.text(text));
  xml.on('cdata', (text) => reader.text(text));
  xml.on('closetag', (tag) => reader.closeTag(tag.name));

  const feed = (text: string | null) => {
    try {
      if (text === null) xml.close();
      else if (text !== '') xml.write(text);
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
    hash.update(buffer);
    bytes += buffer.length;
    feed(decoder.write(buffer));
  }
  feed(decoder.end());
  feed(null);

  const document = reader.finish();
  return { issueDate: document.issueDate, entries: addressEntries(document), sha256: hash.digest('hex'), bytes };
}
