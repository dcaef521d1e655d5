/** Which response types the renderer returns as text, and sniffing when the server sends no Content-Type. */
import { UnsupportedContentTypeError } from '@wcs/errors';
import { isTextMediaType, mimeTypeOf } from '@wcs/net';

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

/** Best guess from the first bytes, for responses without a Content-Type. Undefined = binary. */
export function sniffContentType(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024));
  let text = head.toString('latin1');
  if (text.startsWith('\xef\xbb\xbf')) text = text.slice(3);
  const trimmed = text.trimStart();
  if (trimmed.startsWith('<?xml')) return /<(html|!doctype html)/i.test(trimmed) ? 'text/html' : 'text/xml';
  if (trimmed.startsWith('<')) return 'text/html';
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return 'application/json';
  // NUL or other control bytes (except tab/CR/LF/FF/ESC) mean binary.
  for (const b of head) {
    if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b)) return undefined;
  }
  return 'text/plain';
}
