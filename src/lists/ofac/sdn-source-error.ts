/**
 * The issue could not be read at all: no such file, an HTTP error, a download past its deadline, bzip2 missing or
 * failing. Distinct from SdnFormatError (the bytes arrived but are not an SDN Advanced document): this one may
 * succeed when tried again or once the setup is fixed.
 */
export class SdnSourceError extends Error {
  override readonly name = 'SdnSourceError';
}
