/**
 * Which response types the renderer returns as text. The header is checked before reading
 * (`assertSupportedContentType`), the first bytes after (`assertTextBody`, content-sniff.ts of
 * @wcs/net): a binary body is 415 whatever it was declared as, in both engines.
 */
import { UnsupportedContentTypeError } from '@wcs/errors';
import { isTextMediaType, mimeTypeOf, sniffContent } from '@wcs/net';

export { mimeTypeOf };

/** The sets themselves live in @wcs/net (TEXT_TYPES, isTextMediaType). */
export function isSupportedContentType(mime: string): boolean {
  return isTextMediaType(mime);
}

export function assertSupportedContentType(mime: string): void {
  if (!isSupportedContentType(mime)) {
    throw new UnsupportedContentTypeError(`Unsupported content type: ${mime || 'unknown'}`, {
      details: { contentType: mime },
    });
  }
}

/**
 * The effective media type of a body from its first bytes (any prefix of ≥ 1 KiB, or the whole
 * body) and its raw Content-Type header; UnsupportedContentTypeError (415) when the bytes are
 * binary — a PNG served as text/html is refused before it is converted or billed.
 */
export function assertTextBody(head: Uint8Array, contentTypeHeader: string | undefined): string {
  const sniffed = sniffContent(head, contentTypeHeader);
  if (sniffed.binary) {
    const declared = mimeTypeOf(contentTypeHeader);
    throw new UnsupportedContentTypeError(
      `Unsupported content type: ${sniffed.mime}${declared && declared !== sniffed.mime ? ` (declared ${declared})` : ''}`,
      { details: { contentType: sniffed.mime, declaredContentType: declared, reason: sniffed.reason } },
    );
  }
  return sniffed.mime;
}

/** Best guess from the first bytes, for responses without a Content-Type. Undefined = binary. */
export function sniffContentType(bytes: Uint8Array): string | undefined {
  const sniffed = sniffContent(bytes, undefined);
  return sniffed.binary ? undefined : sniffed.mime;
}
